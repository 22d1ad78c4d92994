/** A command line the CLI cannot run: printed with exit code 2 (host/cli/main.ts); `withUsage` adds the command list. */
export class UsageError extends Error {
  constructor(message: string, readonly withUsage = false) {
    super(message);
  }
}
