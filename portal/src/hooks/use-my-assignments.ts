/** Loads the member's assignments (and whether they are a super admin) for the my-payments page. */
import { useCallback, useEffect, useState } from 'react';
import { isSuperAdmin, myAssignments, type MyAssignment } from '../api';

export type AssignmentsState =
  { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; items: MyAssignment[]; loadedAt: number };

export function useMyAssignments() {
  const [state, setState] = useState<AssignmentsState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    myAssignments().then(
      (items) => live && setState({ status: 'ready', items, loadedAt: Date.now() }),
      (err: unknown) => live && setState({ status: 'error', message: err instanceof Error ? err.message : String(err) }),
    );
    return () => {
      live = false;
    };
  }, [attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, reload };
}

/** GET /api/auth/me/permissions → isSuperAdmin; a failure just hides the notice. */
export function useIsSuperAdmin(): boolean {
  const [value, setValue] = useState(false);
  useEffect(() => {
    let live = true;
    isSuperAdmin().then(
      (v) => live && setValue(v),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return value;
}
