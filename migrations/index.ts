import { Foundation1795000000000 } from "./1795000000000-Foundation.ts";
import { BrokersLedger1795000001000 } from "./1795000001000-BrokersLedger.ts";
import { AssetsMarketData1795000003000 } from "./1795000003000-AssetsMarketData.ts";
import { Fx1795000004000 } from "./1795000004000-Fx.ts";
import { Hardening1795000005000 } from "./1795000005000-Hardening.ts";
import { AccessTokens1795000006000 } from "./1795000006000-AccessTokens.ts";
import { BrimFiles1795000007000 } from "./1795000007000-BrimFiles.ts";
import { ScaleOut1795000008500 } from "./1795000008500-ScaleOut.ts";
import { LedgerCommits1795000009000 } from "./1795000009000-LedgerCommits.ts";
import { FxPrivateRates1795000010000 } from "./1795000010000-FxPrivateRates.ts";
import { FxProviderStatus1795000011500 } from "./1795000011500-FxProviderStatus.ts";
import { DataChanges1795000012000 } from "./1795000012000-DataChanges.ts";
import { McpTokens1795000012500 } from "./1795000012500-McpTokens.ts";
import { McpDrafts1795000013000 } from "./1795000013000-McpDrafts.ts";

/** Every migration in order. Append-only: a merged migration is never edited. */
export const migrations = [Foundation1795000000000, BrokersLedger1795000001000, AssetsMarketData1795000003000, Fx1795000004000,
  Hardening1795000005000, AccessTokens1795000006000, BrimFiles1795000007000, ScaleOut1795000008500,
  LedgerCommits1795000009000, FxPrivateRates1795000010000, FxProviderStatus1795000011500, DataChanges1795000012000,
  McpTokens1795000012500, McpDrafts1795000013000];
