/** Core uses the SDK's one configured decimal.js clone, so plugins and core round alike. */
export { Decimal, toDecimalString } from "../../sdk/index.ts";
