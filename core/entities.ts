import { Asset } from "./assets/asset.entity.ts";
import { ProviderAssignment } from "./assets/provider-assignment.entity.ts";
import { BrimFile } from "./brim/brim-file.entity.ts";
import { BrokerAccess } from "./brokers/broker-access.entity.ts";
import { Broker } from "./brokers/broker.entity.ts";
import { AssetEvent } from "./events/asset-event.entity.ts";
import { FxPrivateRateRow } from "./fx/fx-private-rate.entity.ts";
import { FxRateRow } from "./fx/fx-rate.entity.ts";
import { FxRoute } from "./fx/fx-route.entity.ts";
import { PriceHistory } from "./prices/price-history.entity.ts";
import { GlobalSetting } from "./settings/global-setting.entity.ts";
import { UserSettings } from "./settings/user-settings.entity.ts";
import { Transaction } from "./transactions/transaction.entity.ts";
import { UploadedFile } from "./uploads/uploaded-file.entity.ts";
import { User } from "./users/user.entity.ts";

/** Every entity the data source maps. */
export const entities = [
  Asset, AssetEvent, BrimFile, Broker, BrokerAccess, FxPrivateRateRow, FxRateRow, FxRoute, GlobalSetting, PriceHistory, ProviderAssignment, Transaction, UploadedFile, User,
  UserSettings,
];
