/** Small building blocks shared by the pages. User text is always passed as children (escaped). */
import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef } from "preact/hooks";
import { errorText } from "../api/client.ts";
import { formatMoney, formatPercent, MASK } from "../lib/format.ts";
import { signOf } from "../lib/decimal.ts";
import { localeOf, useApp } from "../lib/store.ts";
import { t } from "../lib/i18n.ts";

export function Page(props: { title: ComponentChildren; actions?: ComponentChildren; children: ComponentChildren }) {
  return (
    <section class="page">
      <header class="page-head">
        <h1>{props.title}</h1>
        {props.actions && <div class="actions">{props.actions}</div>}
      </header>
      {props.children}
    </section>
  );
}

export function ErrorNote(props: { error: unknown; title?: string }) {
  if (!props.error) return null;
  return (
    <div class="note error" role="alert">
      {props.title && <strong>{props.title} </strong>}
      {errorText(props.error)}
    </div>
  );
}

export function Loading(props: { label?: string }) {
  return <p class="muted" role="status" aria-live="polite">{props.label ?? t("Loading…")}</p>;
}

/** A grey placeholder where a figure will appear (hidden from assistive technology: a <Loading> says it in words). */
export function Skeleton(props: { width?: string; height?: string; block?: boolean }) {
  return <span class={`skeleton ${props.block ? "block" : ""}`} aria-hidden="true" data-skeleton="" style={{ width: props.width, height: props.height }} />;
}

export function SkeletonLines(props: { n: number }) {
  return <div class="skeleton-lines">{Array.from({ length: props.n }, (_, i) => <Skeleton key={i} block width={`${90 - (i % 3) * 15}%`} />)}</div>;
}

/** A labelled form control: the label is tied to the control by id, the error by aria-describedby. */
export function Field(props: {
  label: string;
  error?: string | string[] | null;
  hint?: ComponentChildren;
  children: (id: string, describedBy: string | undefined) => ComponentChildren;
  class?: string;
}) {
  const id = useId();
  const errors = props.error ? (Array.isArray(props.error) ? props.error : [props.error]) : [];
  const errId = errors.length ? `${id}-err` : undefined;
  return (
    <div class={`field ${errors.length ? "invalid" : ""} ${props.class ?? ""}`}>
      <label for={id}>{props.label}</label>
      {props.children(id, errId)}
      {props.hint && <small class="muted">{props.hint}</small>}
      {errors.length > 0 && <small class="field-error" id={errId}>{errors.join(" ")}</small>}
    </div>
  );
}

/** An amount in its currency, masked in privacy mode, coloured by sign when `signed`. */
export function Money(props: { amount: string | null | undefined; currency: string; signed?: boolean }) {
  const { privacy, prefs } = useApp();
  if (privacy) return <span class="money masked" aria-label={t("hidden amount")}>{MASK}</span>;
  const cls = props.signed && props.amount ? (signOf(props.amount) < 0 ? "neg" : signOf(props.amount) > 0 ? "pos" : "") : "";
  return <span class={`money ${cls}`}>{formatMoney(props.amount, props.currency, localeOf(prefs))}</span>;
}

/** A percentage (in percent units), coloured by sign. Returns are not masked (they reveal no amount). */
export function Percent(props: { value: string | null | undefined; signed?: boolean }) {
  const { prefs } = useApp();
  const v = props.value;
  const cls = v ? (signOf(v) < 0 ? "neg" : signOf(v) > 0 ? "pos" : "") : "";
  return <span class={`pct ${cls}`}>{formatPercent(v, localeOf(prefs), { signed: props.signed ?? true })}</span>;
}

/** A modal dialog on the native <dialog> element: focus is trapped, Escape closes it. */
export function Dialog(props: { title: string; open: boolean; onClose(): void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) {
      d.showModal();
      // Start on the first field rather than on the close button.
      d.querySelector<HTMLElement>(".dialog-body input:not([disabled]), .dialog-body select:not([disabled]), .dialog-body textarea")?.focus();
    }
    if (!props.open && d.open) d.close();
  }, [props.open]);
  return (
    <dialog ref={ref} aria-label={props.title} onClose={props.onClose} onCancel={props.onClose}>
      {props.open && (
        <div class="dialog-body">
          <header class="dialog-head">
            <h2>{props.title}</h2>
            <button type="button" class="ghost" aria-label={t("Close")} onClick={props.onClose}>✕</button>
          </header>
          {props.children}
        </div>
      )}
    </dialog>
  );
}

export function Select<T extends string | number>(props: {
  id?: string;
  value: T | "";
  options: { value: T; label: string }[];
  onChange(v: string): void;
  placeholder?: string;
  disabled?: boolean;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
  "aria-label"?: string;
}) {
  const { options, onChange, placeholder, value, ...rest } = props;
  return (
    <select {...rest} value={String(value)} onChange={(e) => onChange((e.target as HTMLSelectElement).value)}>
      {placeholder !== undefined && <option value="">{placeholder}</option>}
      {options.map((o) => <option key={o.value} value={String(o.value)}>{o.label}</option>)}
    </select>
  );
}

export function Badge(props: { kind?: "error" | "warning" | "info" | "ok"; children: ComponentChildren }) {
  return <span class={`badge ${props.kind ?? ""}`}>{props.children}</span>;
}

export function today(): string {
  return new Date().toISOString().slice(0, 10);
}

export function daysAgo(n: number): string {
  return new Date(Date.now() - n * 86400000).toISOString().slice(0, 10);
}
