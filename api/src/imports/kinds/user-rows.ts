/** A users import row: what check() reads from the file's cells and hands to the writes. */
import type { MemberRecord, MembershipStatus, UserType } from '@doanhoi/shared';

/** Keys, and the labels the export writes (normalised), so an exported file re-imports. */
export const USER_TYPE_ALIASES: Record<string, UserType> = {
  student: 'student',
  'sinh vien': 'student',
  staff: 'staff',
  'can bo': 'staff',
};
export const MEMBERSHIP_ALIASES: Record<string, MembershipStatus> = {
  none: 'none',
  khong: 'none',
  doan_vien: 'doan_vien',
  'doan vien': 'doan_vien',
  hoi_vien: 'hoi_vien',
  'hoi vien': 'hoi_vien',
  both: 'both',
  'ca hai': 'both',
  'doan vien va hoi vien': 'both',
  'doan vien, hoi vien': 'both',
};

export interface UserRowData {
  code: string;
  familyName: string;
  givenName: string;
  email: string;
  phone: string | null;
  /** null: the default password (no hash, must change at first sign-in). */
  password: string | null;
  passwordHash?: string | null;
  userType: UserType;
  membershipStatus: MembershipStatus;
  classId: number | null;
  managementDepartmentId: number | null;
  trainingDepartmentId: number | null;
  /** The member record's fields the file had (issue 30 item 8). */
  record: Partial<MemberRecord>;
  /** The organizations of the row and those of their parents where the importer may create users. */
  organizationIds: number[];
  /** Which columns the file had, so an update touches only those. */
  present: string[];
}

export interface Existing {
  id: number;
  code: string;
  familyName: string;
  givenName: string;
  email: string;
  userType: UserType;
  classId: number | null;
  managementDepartmentId: number | null;
  trainingDepartmentId: number | null;
}

export const splitCodes = (raw: string | undefined) =>
  (raw ?? '')
    .split(/[,;\n]/)
    .map((c) => c.trim())
    .filter(Boolean);
