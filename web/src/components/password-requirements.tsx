/**
 * The password policy under a new-password field, each requirement ticked or not as the user types.
 * The rule is the server's own module (docs/security.md "Passwords"), imported rather than copied:
 * what this list ticks is what the API accepts. The API still checks, and its 422 is shown if it comes.
 */
import { PASSWORD_MIN_LENGTH, PASSWORD_REQUIREMENTS, type PasswordRequirement } from "../../../core/users/password-policy.ts";
import { t } from "../lib/i18n.ts";

export { unmetPasswordRequirements } from "../../../core/users/password-policy.ts";

function requirementText(code: PasswordRequirement): string {
  switch (code) {
    case "min_length": return t("At least {count} characters", { count: PASSWORD_MIN_LENGTH });
    case "common": return t("Not one of the most common passwords");
    case "few_distinct": return t("More than one or two different characters");
    case "is_name": return t("Not your user name or e-mail address");
  }
}

/** Every requirement, met or not; `id` is for the field's aria-describedby. Announced politely as it changes. */
export function PasswordRequirements(props: { id: string; unmet: readonly PasswordRequirement[] }) {
  return (
    <ul id={props.id} class="password-rules" aria-live="polite" data-testid="password-rules">
      {PASSWORD_REQUIREMENTS.map((code) => {
        const met = !props.unmet.includes(code);
        return (
          <li key={code} class={met ? "pos" : "muted"} data-requirement={code} data-met={String(met)}>
            <span aria-hidden="true">{met ? "✓ " : "✗ "}</span>{requirementText(code)}
            <span class="sr-only"> {met ? t("(met)") : t("(not met)")}</span>
          </li>
        );
      })}
    </ul>
  );
}
