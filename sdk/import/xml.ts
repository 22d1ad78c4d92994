import { XMLParser } from "fast-xml-parser";

/**
 * Parses report XML (IBKR Flex statements and the like) with fast-xml-parser in its safe set-up:
 * attributes kept as strings under their own names (`isin="1E5"` stays `"1E5"`, `q="0.10"` stays
 * `"0.10"`), tag values never typed, entities of a DOCTYPE not expanded. Tags named in `arrayTags`
 * are always arrays, even with one element. Throws on malformed XML.
 */
export function parseXml(text: string, arrayTags: readonly string[]): Record<string, unknown> {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    parseAttributeValue: false,
    parseTagValue: false,
    processEntities: false,
    isArray: (name) => arrayTags.includes(name),
  });
  return parser.parse(text, true) as Record<string, unknown>;
}
