/**
 * The frame of the portal's sign-in, change-password and forgotten-password screens (one markup
 * for all): language and theme toggles, a card with the heading, the server's error, the form (or,
 * without one, only the children: a notice) and a footer; and the labelled input with its inline
 * error that the forms use.
 */
import type { FormEvent, InputHTMLAttributes, ReactNode } from 'react';
import { AlertIcon, WalletIcon } from './icons';
import { LanguageSwitcher } from './language-switcher';
import { Spinner } from './states';
import { ThemeToggle } from './theme-toggle';

interface AuthCardProps {
  title: string;
  subtitle: string;
  /** The server's refusal, shown above the form under `errorTitle`. */
  error: { title: string; message: string | null; testId: string };
  form?: { testId: string; onSubmit: (e: FormEvent) => void; submitting: boolean; submitLabel: string };
  footer: ReactNode;
  children: ReactNode;
}

export function AuthCard({ title, subtitle, error, form, footer, children }: AuthCardProps) {
  return (
    <main className="login-page">
      <div className="login-toolbar">
        <LanguageSwitcher />
        <ThemeToggle />
      </div>
      <div className="card login-card">
        <div className="login-heading">
          <WalletIcon className="login-logo" />
          <h1>{title}</h1>
          <p className="muted">{subtitle}</p>
        </div>
        {error.message ? (
          <div className="notice notice-error" role="alert" data-testid={error.testId}>
            <AlertIcon className="notice-icon" />
            <div>
              <strong>{error.title}</strong>
              <div>{error.message}</div>
            </div>
          </div>
        ) : null}
        {form ? (
          <form className="form" onSubmit={form.onSubmit} noValidate data-testid={form.testId}>
            {children}
            <button type="submit" className="btn btn-primary btn-block" disabled={form.submitting}>
              {form.submitting ? <Spinner small /> : null}
              {form.submitLabel}
            </button>
          </form>
        ) : (
          children
        )}
        <p className="login-footer muted">{footer}</p>
      </div>
    </main>
  );
}

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'className' | 'aria-invalid' | 'aria-describedby'> {
  id: string;
  label: string;
  /** The translated message, shown under the input and announced with it. */
  error?: string;
}

export function AuthField({ id, label, error, ...input }: FieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className={error ? 'input input-invalid' : 'input'}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : undefined}
        {...input}
      />
      {error ? (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}
