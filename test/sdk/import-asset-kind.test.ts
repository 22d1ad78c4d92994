import { expect, test } from "bun:test";
import { assetTypeOfName } from "../../sdk/import/index.ts";

// Names as brokers print them (German PDF notes, DEGIRO/Trading 212/Scalable/Fineco product
// columns); the values are invented, the wordings are the brokers'.
const CASES: [string, ReturnType<typeof assetTypeOfName>][] = [
  // ETF: the word "ETF", however it is glued to the rest; an ETF's share and bond words do not matter.
  ["ISHARES CORE MSCI WORLD UCITS ETF USD (ACC)", "ETF"],
  ["VANGUARD FTSE ALL-WORLD UCITS ETF", "ETF"],
  ["Vanguard FTSE All-World U.ETF Registered Shares USD Dis.oN", "ETF"],
  ["iShsIII-Core MSCI World U.ETF Reg. Shs USD Acc. oN", "ETF"],
  ["iShsIII-Gl.Infl.L.Gov.Bd U.ETF Reg. Shs HGD EUR Acc. oN", "ETF"],
  ["iShs Core S&P 500 UC ETF USD (Dist)", "ETF"],
  ["SPDR S&P 500 UCITS ETF Registered Shares USD o.N.", "ETF"],
  ["iShares Core Euro Corporate Bond UCITS ETF", "ETF"],
  ["Vanguard Total Stock Market Index Fund ETF Shares", "ETF"],
  ["Invesco QQQ Exchange Traded Fund", "ETF"],
  ["vaneck vectors etf", "ETF"],
  // FUND
  ["MORGAN STANLEY GBP LIQUIDITY FUND", "FUND"],
  ["DWS Top Dividende Inhaber-Anteile LD", "FUND"],
  ["Deka-Globale Aktien LowRisk Fondsanteile CF (A)", "FUND"],
  ["Allianz Global Investors Fund - Allianz Europe Equity Growth Anteilsklasse A EUR", "FUND"],
  ["Fundsmith Equity Fund T Acc", "FUND"],
  ["Fondo Eurizon Azioni Italia", "FUND"],
  // BOND
  ["Bundesrep.Deutschland Anl.v.2014(2024)", "BOND"],
  ["Allianz SE FLR-Sub.Anl.v.2014(2024/unb.)", "BOND"],
  ["Volkswagen Leasing GmbH Inh.-Schv. v.2018(2023)", "BOND"],
  ["KfW Inhaber-Schuldverschreibung v.2020(2030)", "BOND"],
  ["Daimler AG EO-Medium-Term Notes 2019(26)", "BOND"],
  ["Apple Inc. DL-Notes 2019(19/29)", "BOND"],
  ["EO-Anleihe v.2020(2030)", "BOND"],
  ["United States of America DL-Notes 2020(30)", "BOND"],
  ["Berlin Hyp AG Hyp.-Pfandbrief v.19(26)", "BOND"],
  ["BTP ITALIA 2028", "BOND"],
  // STOCK
  ["Bayer AG Namens-Aktien o.N.", "STOCK"],
  ["Mercedes-Benz Group AG Namens-Aktien o.N.", "STOCK"],
  ["Porsche Automobil Holding SE Inhaber-Vorzugsaktien o.St.o.N.", "STOCK"],
  ["Siemens Energy AG Inhaber-Aktien", "STOCK"],
  ["QUALCOMM INC. REGISTERED SHARES DL -,0001", "STOCK"],
  ["Canadian Natural Resources Ltd Registered Shares o.N.", "STOCK"],
  ["Apple Inc. Bearer Shares", "STOCK"],
  ["KONE OYJ -B- REG. SHS", "STOCK"],
  ["Pluralsight Inc. Reg. Shs Cl. A", "STOCK"],
  ["APPLE INC. - COMMON STOCK", "STOCK"],
  ["ADR ON JD.COM INC CLASS A", "STOCK"],
  ["Merlin Properties SOCIMI S.A. Acciones Nominativas EO 1", "STOCK"],
  ["TotalEnergies SE Actions Port. EO 2,5", "STOCK"],
  // nothing: a word inside another word, a name without a kind word, or a kind that is none of the four
  ["Petfood AG", undefined],
  ["Bondholder Corp", undefined],
  ["Fondation Holding SA", undefined],
  ["Funding Circle Holdings", undefined],
  ["Fundamental Global Inc", undefined],
  ["Shareholder Value Beteiligungen AG", undefined],
  ["Stockland Corp", undefined],
  ["Aktiengesellschaft für Industrie", undefined],
  ["APPLE INC", undefined],
  ["Microsoft", undefined],
  ["ETFS Physical Gold", undefined],
  ["Xtrackers IE Physical Gold ETC Securities", undefined],
  ["WisdomTree Physical Swiss Gold ETC", undefined],
  ["iShares Physical Metals PLC – Gold", undefined],
  ["VanEck Bitcoin ETN", undefined],
  ["Vontobel Financial Products Aktienanleihe v.23(24) Allianz", undefined],
  ["HSBC Trinkaus Turbo Optionsschein auf DAX", undefined],
  ["Société Générale Discount Zertifikat auf Siemens Aktie", undefined],
  // a share word next to an index or a fund range: funds are "Registered Shares" too
  ["Xtr.(IE)-MSCI World Registered Shares 1C o.N.", undefined],
  ["Amundi Index Solutions Registered Shares", undefined],
  ["UK Treasury 4% Stock 2032", undefined],
  // words that name funds as often as what they hold: "Bond", "Anleihen", "Aktien", "Stock" alone
  ["ISHARES JPMORGAN EM BOND", undefined],
  ["CSIF (CH) Bond Corporate Global ex CHF Blue ZBH", undefined],
  ["Vanguard Total Bond Market", undefined],
  ["Deka-Euro Anleihen", undefined],
  ["DWS Aktien Strategie Deutschland", undefined],
  ["BNY MELLON GLOBAL STOCK - I", undefined],
  ["Beispiel Welt Aktien (Acc)", undefined],
  ["TESLA INC. - COMMON ST", undefined],
  ["", undefined],
  [undefined as never, undefined],
];

test("a security's kind is read only from an unambiguous word in its name", () => {
  const got = CASES.map(([name]) => [name, assetTypeOfName(name)]);
  expect(got).toEqual(CASES);
});
