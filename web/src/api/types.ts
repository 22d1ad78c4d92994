/**
 * Names for the generated shapes the pages use: every type here is an alias of a type generated
 * from the OpenAPI document (schema.d.ts, `npm run gen:api`), never a hand-written copy.
 */
import type { Result } from "./client.ts";
import type { components } from "./schema";

type Schemas = components["schemas"];

export type Broker = Result<"get", "/brokers">["items"][number];
export type BrokerSummary = Result<"get", "/brokers/{id}/summary">;
export type Asset = Result<"get", "/assets">[number];
export type Transaction = Result<"get", "/transactions">[number];
export type FxRoute = Result<"get", "/fx/providers/routes">[number];
export type Money = Schemas["Money"];

export type DataQualityIssue = Schemas["DataQualityIssue"];
export type DataQualityReport = Schemas["DataQualityReport"];
export type Holding = Schemas["ReportHolding"];
export type Allocation = Schemas["AllocationItem"];
export type ReportSummary = Schemas["ReportSummary"];
export type HistoryPoint = Schemas["ReportHistoryPoint"];
export type PeriodReturn = Schemas["PeriodReturn"];
export type Contribution = Schemas["ReportContribution"];
export type PositionsContribution = Schemas["PositionsContribution"];
/** The report as the pages read it: the response of `POST /portfolio/report`. */
export type ReportView = Result<"post", "/portfolio/report">;

/** The transaction types' rules, as `GET /transactions/types` serves them. */
export type TxTypeRule = Result<"get", "/transactions/types">["transaction_types"][number];
