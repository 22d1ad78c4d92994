import { UnprocessableError } from "../errors/domain-error.ts";

/** A container-image tag that is not a stable `X.Y.Z` release (422 `INVALID_TAG`). */
export class InvalidTagError extends UnprocessableError {
  constructor(tag: string) {
    super("INVALID_TAG", `Tag '${tag.slice(0, 64)}' is not a stable X.Y.Z release tag`);
  }
}
