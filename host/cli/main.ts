import "reflect-metadata";
import { resolve } from "node:path";
import { DomainError } from "../../core/errors/domain-error.ts";
import { loadConfig } from "../config.ts";
import { BackupCliError, createArchive, restoreArchive } from "../api/backup/archive.cli.ts";
import { copyToPostgres, DbCopyError } from "../api/backup/copy-to-postgres.cli.ts";
import { PdfTextCliError, runImport } from "../api/brokers/import/pdf-text.cli.ts";
import { McpRelayError, runMcpRelay } from "../api/mcp/relay.cli.ts";
import { runUser } from "../api/users/users.cli.ts";
import { PluginCliError, runPlugin } from "../api/plugins/plugin.cli.ts";
import { UsageError } from "./usage-error.ts";

const USAGE = `Usage: npm run cli -- user <command> | backup <command> | plugin <command> | db <command> | import <command> | mcp

Commands:
  user create <username> <email> <password>   create a superuser account
  user reset-password <username> <password>   set a new password; ends every session of the account
                                              and clears its failed-login throttle
  user deactivate <username>                  disable an account (its next request gets 401)
  user activate <username>                    re-enable an account
  user promote <username>                     make an account superuser
  user demote <username>                      remove superuser rights
  user list                                   list every account
  backup create <file.tar.gz>                 archive the database (a consistent snapshot), uploads, BRIM files
                                              and plugin configuration, also while the server runs
  backup restore <file.tar.gz> [--force]      restore an archive into an empty DATA_DIR (--force replaces
                                              those parts of a non-empty one; stop the server first)
  plugin new <kind> <id> [dir] [--sdk <path>] write a plugin project that passes its own contract test
                                              (templates: calculation-tool, fx-provider, risk-tool)
  plugin install <folder|tarball> [--force]   copy a plugin into PLUGINS_DIR with its dependencies and
                                              validate it (manifest, API version); restart to load it
  db copy-to-postgres <postgres://url>        copy DATA_DIR's SQLite database into an empty PostgreSQL database
                                              (schema, every row, row counts verified); stop the server first
  import pdf-text <file.pdf> [--anonymise]    print a broker PDF's text as importers read it; --anonymise masks
                                              names, addresses, IBANs and account numbers (for bug reports)
  mcp --token <pt_…> [--url <server>]         relay MCP over stdio to a running server's /api/v1/mcp (docs/mcp.md;
                                              the token may also come from PT_TOKEN, the URL from PT_URL)
  mcp --data-dir <dir> --token <pt_…>         serve MCP over stdio straight from a data dir, no server needed
                                              (DATA_DIR in the environment too, when no --url or PT_URL is given)

Works on DATA_DIR (default ./data), also while the server runs.
Passwords need at least 8 characters with an upper-case letter, a lower-case letter, a digit and a symbol,
and may not be a common password or the account's name (docs/security.md "Passwords").`;

/**
 * The command dispatcher: each command lives with what it serves (its area under host/api/, the
 * database, the plugin system); this file parses the command line and maps errors to exit codes.
 */
export async function runCli(argv: string[], out: (line: string) => void): Promise<number> {
  const [area, command, ...args] = argv;
  if (area === "backup") return runBackup(command, args, out);
  if (area === "plugin") return runPlugin(command, args, out);
  if (area === "import") return runImport(command, args, out);
  if (area === "mcp") {
    try {
      const options = [command ?? "", ...args].filter(Boolean);
      const option = (name: string) => { const i = options.indexOf(name); return i >= 0 ? options[i + 1] : undefined; };
      // Straight to a data dir when one is named and no server address is: no server needs to run.
      const dataDir = option("--data-dir") ?? (option("--url") || process.env.PT_URL ? undefined : process.env.DATA_DIR);
      // Loaded only here: it assembles the whole server (plugins, workers), which no other command needs.
      if (dataDir) return await (await import("../api/mcp/direct.cli.ts")).runMcpDirect(resolve(process.env.INIT_CWD ?? process.cwd(), dataDir), option("--token") ?? process.env.PT_TOKEN);
      return await runMcpRelay(options);
    } catch (error) {
      if (error instanceof McpRelayError) throw new UsageError(error.message);
      throw error;
    }
  }
  if (area === "db") {
    if (command !== "copy-to-postgres" || args.length !== 1) throw new UsageError("Expected: db copy-to-postgres <postgres://url>");
    try {
      await copyToPostgres(loadConfig().dataDir, args[0]!, out);
      return 0;
    } catch (error) {
      if (error instanceof DbCopyError) throw new UsageError(error.message);
      throw error;
    }
  }
  if (area !== "user" || !command) throw new UsageError(USAGE);
  return runUser(command, args, out);
}

/** Backup commands never open the database through TypeORM (that would create and migrate one in an empty DATA_DIR). */
async function runBackup(command: string | undefined, args: string[], out: (line: string) => void): Promise<number> {
  const config = loadConfig();
  const force = args.includes("--force");
  // `npm run` starts us in the package root; a relative archive path means the caller's directory.
  const paths = args.filter((a) => a !== "--force").map((a) => resolve(process.env.INIT_CWD ?? process.cwd(), a));
  if (command === "create" && paths.length === 1 && !force) await createArchive(config, paths[0]!, out);
  else if (command === "restore" && paths.length === 1) await restoreArchive(config, paths[0]!, force, out);
  else throw new UsageError(`Expected: backup create <file.tar.gz> | backup restore <file.tar.gz> [--force]\n\n${USAGE}`);
  return 0;
}

if (import.meta.main) {
  try {
    process.exitCode = await runCli(process.argv.slice(2), (line) => console.log(line));
  } catch (error) {
    const known = error instanceof UsageError || error instanceof DomainError || error instanceof BackupCliError || error instanceof PluginCliError
      || error instanceof PdfTextCliError;
    const usage = error instanceof UsageError && error.withUsage ? `\n\n${USAGE}` : "";
    console.error(`Error: ${known ? (error as Error).message : String(error)}${usage}`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  }
}
