import { z } from "zod";
import { GlobalSettingsService } from "../../../core/settings/global-settings.service.ts";
import { type PasswordOwner, strictPasswordProblems } from "../../../core/users/password.ts";
import { LoginThrottleService } from "../../../core/users/login-throttle.service.ts";
import { UserService } from "../../../core/users/user.service.ts";
import { UsageError } from "../../cli/usage-error.ts";
import { loadConfig } from "../../config.ts";
import { createContainer } from "../../container.ts";
import { openDatabase } from "../../db/data-source.ts";
import { createLogger } from "../../logger.ts";

function need(args: string[], count: number, shape: string): string[] {
  if (args.length !== count) throw new UsageError(`Expected: user ${shape}`);
  return args;
}

function checkPassword(password: string, owner: PasswordOwner): void {
  const problems = strictPasswordProblems(password, owner);
  if (problems.length) throw new UsageError(`Password is too weak: it needs ${problems.join(", ")}`);
}

/** `user <command>`: account administration on DATA_DIR's database, also while the server runs. */
export async function runUser(command: string, args: string[], out: (line: string) => void): Promise<number> {
  const config = loadConfig();
  const db = await openDatabase(config.dataDir);
  try {
    const container = createContainer(config, createLogger("silent"), db);
    await container.resolve(GlobalSettingsService).initialize();
    const users = container.resolve(UserService);
    switch (command) {
      case "create": {
        const [username, email, password] = need(args, 3, "create <username> <email> <password>");
        if (!/^[A-Za-z0-9_.-]{3,50}$/.test(username!)) throw new UsageError("Username must be 3-50 letters, digits, '_', '.' or '-'");
        if (!z.email().safeParse(email).success) throw new UsageError(`Not a valid email address: ${email}`);
        checkPassword(password!, { username, email });
        const user = await users.createSuperuser({ username: username!, email: email!, password: password! });
        out(`Created superuser '${user.username}' (id ${user.id})`);
        break;
      }
      case "reset-password": {
        const [username, password] = need(args, 2, "reset-password <username> <password>");
        checkPassword(password!, { username });
        const user = await users.resetPassword(username!, password!);
        // The owner's way back in: the account's failed-login counter is cleared too.
        await container.resolve(LoginThrottleService).clearAccount(user.id);
        out(`Password of '${username}' reset`);
        break;
      }
      case "deactivate":
      case "activate": {
        const [username] = need(args, 1, `${command} <username>`);
        await users.setActive(username!, command === "activate");
        out(`User '${username}' ${command}d`);
        break;
      }
      case "promote":
      case "demote": {
        const [username] = need(args, 1, `${command} <username>`);
        await users.setSuperuser(username!, command === "promote");
        out(`User '${username}' ${command}d`);
        break;
      }
      case "list": {
        need(args, 0, "list");
        out(["ID", "USERNAME", "EMAIL", "ACTIVE", "SUPERUSER"].join("\t"));
        for (const u of await users.listAll()) {
          out([u.id, u.username, u.email, u.isActive ? "yes" : "no", u.isSuperuser ? "yes" : "no"].join("\t"));
        }
        break;
      }
      default:
        throw new UsageError(`Unknown command 'user ${command}'`, true);
    }
    return 0;
  } finally {
    await db.close();
  }
}
