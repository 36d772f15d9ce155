import { ApartmentOutlined, BarChartOutlined, FlagOutlined, PlusOutlined, TeamOutlined, UserAddOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';

/** Fixed sample figures (000 §1); labels and activity texts live in dashboard.json. */
export const STATS: { key: string; value: number; change: number; icon: ReactNode }[] = [
  { key: 'totalMembers', value: 1250, change: 12.5, icon: <TeamOutlined /> },
  { key: 'youthUnionMembers', value: 856, change: 8.2, icon: <FlagOutlined /> },
  { key: 'associationMembers', value: 642, change: 15.3, icon: <TeamOutlined /> },
  { key: 'organizations', value: 45, change: 4.7, icon: <ApartmentOutlined /> },
];

export const ACTIVITIES = ['first', 'second', 'third'];

export const QUICK_ACTIONS: { key: string; icon: ReactNode }[] = [
  { key: 'addUser', icon: <UserAddOutlined /> },
  { key: 'createOrganization', icon: <PlusOutlined /> },
  { key: 'viewReports', icon: <BarChartOutlined /> },
];
