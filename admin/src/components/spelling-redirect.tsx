import { Navigate, useLocation } from 'react-router';

/** 000 §2: "/organisations" is an older spelling of "/organizations"; keep the rest of the path. */
export function OrganisationsRedirect() {
  const { pathname, search } = useLocation();
  return <Navigate to={`${pathname.replace(/^\/organisations/, '/organizations')}${search}`} replace />;
}
