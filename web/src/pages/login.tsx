/** Sign in and registration. The first account registered becomes the administrator. */
import { useId, useState } from "preact/hooks";
import { api, ApiError, errorText } from "../api/client.ts";
import { PasswordRequirements, unmetPasswordRequirements } from "../components/password-requirements.tsx";
import { Field } from "../components/ui.tsx";
import { Link, navigate, safeNext, useLocation } from "../lib/router.tsx";
import { t } from "../lib/i18n.ts";

export function LoginPage(props: { mode: "login" | "register"; onSignedIn(): void }) {
  const loc = useLocation();
  const [username, setUsername] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const register = props.mode === "register";
  const expired = loc.query.get("expired") === "1";
  const next = loc.query.get("next") ?? "/";
  // The server's password policy, evaluated as the user types (registration only).
  const unmet = register ? unmetPasswordRequirements(password, { username, email }) : [];
  const rulesId = useId();

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (register) {
        await api.post("/auth/register", { body: { username, email, password } });
      }
      await api.post("/auth/login", { body: { username, password } });
      navigate(safeNext(next), { replace: true });
      props.onSignedIn();
    } catch (err) {
      if (err instanceof ApiError && err.code === "REGISTRATION_DISABLED") {
        setError(t("Registration is disabled on this server. Ask the administrator to create an account for you."));
      } else if (err instanceof ApiError && err.code === "USER_EXISTS") {
        setError(t("This user name or e-mail address is already registered. Sign in instead."));
      } else if (err instanceof ApiError && err.code === "INVALID_CREDENTIALS") {
        setError(t("Wrong user name or password."));
      } else {
        setError(errorText(err));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="auth" id="main">
      <form class="card auth-card" onSubmit={submit} aria-labelledby="auth-title">
        <h1 id="auth-title">{register ? t("Create an account") : t("Sign in")}</h1>
        {expired && !register && <p class="note" role="status">{t("Your session has expired. Sign in again to continue.")}</p>}
        {register && <p class="muted">{t("The first account created on a new server becomes its administrator.")}</p>}
        <Field label={register ? t("User name") : t("User name or e-mail")}>
          {(id) => <input id={id} name="username" autoComplete="username" required value={username}
            onInput={(e) => setUsername((e.target as HTMLInputElement).value)} />}
        </Field>
        {register && (
          <Field label={t("E-mail")}>
            {(id) => <input id={id} name="email" type="email" autoComplete="email" required value={email}
              onInput={(e) => setEmail((e.target as HTMLInputElement).value)} />}
          </Field>
        )}
        <Field label={t("Password")}>
          {(id) => <input id={id} name="password" type="password" autoComplete={register ? "new-password" : "current-password"}
            required aria-describedby={register ? rulesId : undefined} value={password} onInput={(e) => setPassword((e.target as HTMLInputElement).value)} />}
        </Field>
        {register && <PasswordRequirements id={rulesId} unmet={unmet} />}
        {error && <p class="note error" role="alert">{error}</p>}
        <button type="submit" class="primary" disabled={busy || unmet.length > 0}>{register ? t("Create account") : t("Sign in")}</button>
        <p class="muted">
          {register
            ? <>{t("Already have an account?")} <Link href={`/login?next=${encodeURIComponent(next)}`}>{t("Sign in")}</Link></>
            : <>{t("No account yet?")} <Link href={`/register?next=${encodeURIComponent(next)}`}>{t("Create one")}</Link></>}
        </p>
      </form>
    </main>
  );
}
