/**
 * Every stable code a transaction batch can report, with a description for
 * `GET /transactions/types`. Codes are the wire contract: never rename one.
 */
export const VALIDATION_CODES = {
  // Batch and broker level
  balanceAssetNegative: "An asset quantity of a broker goes negative at the end of a day and the broker does not allow shorting",
  balanceCashNegative: "A cash balance of a broker goes negative at the end of a day and the broker does not allow overdraft",
  txNotFound: "The transaction does not exist or is in a broker you cannot see",
  typeCannotSplit: "Only TRANSFER, FX_CONVERSION and CASH_TRANSFER pairs can be split",
  splitIdsMismatch: "The two ids of a split are not the two legs of one pair",
  promoteRefNotFound: "A promote reference (id or link_uuid) matches no visible transaction or no create of this batch",
  alreadyPaired: "A promote reference is already one leg of a pair",
  noPromoteRule: "No paired type can be made from these two transaction types",
  accessDenied: "You can see this broker but need EDITOR or OWNER to write to it",
  linkUuidPairCount: "A link_uuid of paired creates must be shared by exactly two rows",
  wacFxUnavailable: "The sender's weighted average cost mixes currencies and no FX conversion is available",
  costBasisRequired: "A TRANSFER or ADJUSTMENT adding quantity needs cost_basis_override, or cost_basis_mode auto",
  // Per-row rules
  assetRequired: "This type needs asset_id",
  assetForbidden: "This type takes no asset_id",
  assetIdInvalid: "asset_id is not the id of an existing asset",
  assetEventIdInvalid: "asset_event_id is not an event of the row's asset",
  brokerRequired: "broker_id is missing",
  cashRequired: "This type needs a non-zero cash amount",
  cashForbidden: "This type moves no cash",
  cashSignPositive: "The cash amount of this type must be positive",
  cashSignNegative: "The cash amount of this type must be negative",
  costBasisModeIncompatible: "cost_basis_override or cost_basis_mode given on a row that adds no quantity",
  eventRequiresAsset: "asset_event_id needs asset_id",
  eventTypeIncompatible: "The asset event's type cannot be linked to this transaction type",
  fxConversionCashRequired: "An FX_CONVERSION leg needs a non-zero cash amount",
  fxConversionQtyZero: "An FX_CONVERSION leg moves no quantity",
  idRequired: "An update needs the id of the transaction",
  linkUuidRequired: "Paired types are created with a link_uuid shared by both legs",
  qtyPositive: "The quantity of this type must be positive",
  qtyNegative: "The quantity of this type must be negative",
  qtyZero: "This type moves no quantity",
  qtyNonzero: "The quantity of this type must not be zero",
  multipleBusinessRuleErrors: "Several rules failed for one row; see params.errors",
  // Ours (docs/transactions.md)
  brokerNotFound: "broker_id is not a broker you can see",
  costBasisUnavailable: "cost_basis_mode auto: the sender holds no units with a known cost before the row's date",
  fieldNotUpdatable: "broker_id, asset_id, related_transaction_id and link_uuid cannot be changed by an update",
  pairAmountNotOpposite: "The two CASH_TRANSFER legs must have opposite amounts",
  pairAssetMismatch: "The two TRANSFER legs must move the same asset",
  pairBrokerMismatch: "The two FX_CONVERSION legs must be in the same broker",
  pairCurrencyMismatch: "The two CASH_TRANSFER legs must have the same currency",
  pairDeleteIncomplete: "One leg of a pair can only be deleted together with its partner (or split the pair first)",
  pairQuantityNotOpposite: "The two TRANSFER legs must have opposite quantities",
  pairSameBroker: "The two legs of a TRANSFER or CASH_TRANSFER must be in different brokers",
  pairSameCurrency: "The two FX_CONVERSION legs must have different currencies",
  pairSignNotOpposite: "One FX_CONVERSION leg must be negative and the other positive",
  pairTypeMismatch: "Both legs of a pair must have the same type",
  parseError: "A field of the row has the wrong type or format",
  typeSwapForbidden: "The type can only change within its swap group (BUY/SELL, DEPOSIT/WITHDRAWAL, DIVIDEND/INTEREST, TAX/FEE)",
} as const;

export type ValidationCode = keyof typeof VALIDATION_CODES;

/** All codes are errors: any of them keeps a batch from committing. */
export function validationCodeList(): { code: ValidationCode; description: string; severity: "error" }[] {
  return (Object.keys(VALIDATION_CODES) as ValidationCode[]).map((code) => ({
    code, description: VALIDATION_CODES[code], severity: "error",
  }));
}
