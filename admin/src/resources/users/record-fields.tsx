/**
 * The member record in the users form (issue 30 item 8): date of birth, gender, ethnicity,
 * religion, the days of joining the Đoàn, the Hội and the Party, hometown. Days are kept in the form
 * as the API's "YYYY-MM-DD" (a date picker shows them dd/mm/yyyy); joining after birth is the
 * shared rule (memberDateIssues), checked again whenever the date of birth changes.
 */
import {
  createUserSchema,
  ETHNICITIES,
  GENDERS,
  HOMETOWN_MAX,
  JOINING_DATE_FIELDS,
  memberDateIssues,
  RELIGION_MAX,
  todayVn,
} from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Col, DatePicker, Divider, Form, Input, Select, type FormRule } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { zodRule } from '../../components/form-rules';
import { translateValidation } from '../../providers';

const rule = zodRule(createUserSchema);
const DAY = 'YYYY-MM-DD';

/** The picker's value from the stored day, and back. */
const dayProps = {
  getValueProps: (v: string | null | undefined) => ({ value: v ? dayjs(v, DAY) : null }),
  normalize: (v: Dayjs | null) => (v ? v.format(DAY) : null),
};

function DayItem({ name, label, rules }: { name: string; label: string; rules: FormRule[] }) {
  return (
    <Form.Item label={label} name={name} rules={rules} {...dayProps} dependencies={name === 'dateOfBirth' ? undefined : ['dateOfBirth']}>
      <DatePicker format="DD/MM/YYYY" className="full-width" disabledDate={(d) => d.format(DAY) > todayVn()} data-testid={`user-${name}`} />
    </Form.Item>
  );
}

export function MemberRecordFields() {
  const t = useTranslate();
  const { i18n } = useTranslation();
  const lang = i18n.resolvedLanguage?.startsWith('en') ? 'en' : 'vi';
  const afterBirth =
    (field: string): FormRule =>
    ({ getFieldValue }) => ({
      validator: async () => {
        const issue = memberDateIssues({ dateOfBirth: getFieldValue('dateOfBirth'), [field]: getFieldValue(field) }).find(
          (i) => i.path === field,
        );
        if (issue) throw new Error(translateValidation(issue.key));
      },
    });
  return (
    <>
      <Col span={24}>
        <Divider orientation="left" plain>
          {t('users:record.title')}
        </Divider>
      </Col>
      <Col xs={24} md={8}>
        <DayItem name="dateOfBirth" label={t('users:fields.dateOfBirth')} rules={[rule]} />
      </Col>
      <Col xs={24} md={8}>
        <Form.Item label={t('users:fields.gender')} name="gender" rules={[rule]}>
          <Select
            allowClear
            placeholder={t('users:fields.none')}
            options={GENDERS.map((g) => ({ value: g, label: t(`users:gender.${g}`) }))}
            data-testid="user-gender"
          />
        </Form.Item>
      </Col>
      <Col xs={24} md={8}>
        <Form.Item label={t('users:fields.ethnicity')} name="ethnicity" rules={[rule]}>
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder={t('users:fields.none')}
            options={ETHNICITIES.map((e) => ({ value: e.code, label: e[lang] }))}
            data-testid="user-ethnicity"
          />
        </Form.Item>
      </Col>
      {JOINING_DATE_FIELDS.map((name) => (
        <Col xs={24} md={8} key={name}>
          <DayItem name={name} label={t(`users:fields.${name}`)} rules={[rule, afterBirth(name)]} />
        </Col>
      ))}
      <Col xs={24} md={12}>
        <Form.Item label={t('users:fields.religion')} name="religion" rules={[rule]}>
          <Input maxLength={RELIGION_MAX} placeholder={t('users:record.religionPlaceholder')} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item label={t('users:fields.hometown')} name="hometown" rules={[rule]}>
          <Input maxLength={HOMETOWN_MAX} />
        </Form.Item>
      </Col>
    </>
  );
}
