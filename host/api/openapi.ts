import type { ApiDocs } from "../http/docs.ts";
import { aiExportDocs } from "./ai-export/ai-export.openapi.ts";
import { assetsDocs } from "./assets/assets.openapi.ts";
import { authDocs } from "./auth/auth.openapi.ts";
import { backupDocs } from "./backup/backup.openapi.ts";
import { brimDocs } from "./brokers/import/brim.openapi.ts";
import { brokersDocs } from "./brokers/brokers.openapi.ts";
import { fxDocs } from "./fx/fx.openapi.ts";
import { generalDocs } from "./general.openapi.ts";
import { mcpDocs } from "./mcp/mcp.openapi.ts";
import { portfolioDocs } from "./portfolio/portfolio.openapi.ts";
import RESPONSES from "./response-examples.json" with { type: "json" };
import { riskDocs } from "./risk/risk.openapi.ts";
import { settingsDocs } from "./settings/settings.openapi.ts";
import { signalsDocs } from "./signals/signals.openapi.ts";
import { systemDocs } from "./system/system.openapi.ts";
import { toolsDocs } from "./tools/tools.openapi.ts";
import { BATCH_ROW_SCHEMAS } from "./transactions/transaction-rows.schema.ts";
import { transactionsDocs } from "./transactions/transactions.openapi.ts";
import { uploadsDocs } from "./uploads/uploads.openapi.ts";
import { usersDocs } from "./users/users.openapi.ts";
import { utilitiesDocs } from "./utilities/utilities.openapi.ts";

/**
 * The OpenAPI text of every area (host/http/openapi/document.ts assembles it), one line per area's
 * `<area>.openapi.ts`. Tagged areas come in the order their tags are listed in the document.
 */
export const API_DOCS: ApiDocs = {
  areas: [
    // The fields every area uses (no tag).
    generalDocs,
    authDocs, usersDocs, settingsDocs, systemDocs, uploadsDocs, transactionsDocs, brokersDocs, assetsDocs, fxDocs, portfolioDocs,
    aiExportDocs, utilitiesDocs,
    // Without a described tag in the document's list.
    mcpDocs, brimDocs, backupDocs, riskDocs, signalsDocs, toolsDocs,
  ],
  responses: RESPONSES,
  extraSchemas: BATCH_ROW_SCHEMAS,
  links: { health: "/api/v1/system/health" },
};
