import { ethnicityName, formatDay, type MemberRecord } from '@doanhoi/shared';
import { Descriptions } from 'antd';

const DAYS = ['dateOfBirth', 'doanJoinedAt', 'hoiJoinedAt', 'partyJoinedAt'] as const;

/**
 * The member record (issue 30 item 8) as rows of the view dialog's Descriptions: an array of items,
 * since Descriptions reads its items from its direct children.
 */
export function memberRecordItems(u: MemberRecord, t: (key: string) => string, language: string | undefined) {
  const lang = language?.startsWith('en') ? 'en' : 'vi';
  const value = (v: string | null | undefined) => v || '—';
  return [
    ...DAYS.map((k) => (
      <Descriptions.Item key={k} label={t(`users:fields.${k}`)}>
        {value(formatDay(u[k]))}
      </Descriptions.Item>
    )),
    <Descriptions.Item key="gender" label={t('users:fields.gender')}>
      {u.gender ? t(`users:gender.${u.gender}`) : '—'}
    </Descriptions.Item>,
    <Descriptions.Item key="ethnicity" label={t('users:fields.ethnicity')}>
      {value(ethnicityName(u.ethnicity, lang))}
    </Descriptions.Item>,
    <Descriptions.Item key="religion" label={t('users:fields.religion')}>
      {value(u.religion)}
    </Descriptions.Item>,
    <Descriptions.Item key="hometown" label={t('users:fields.hometown')}>
      {value(u.hometown)}
    </Descriptions.Item>,
  ];
}
