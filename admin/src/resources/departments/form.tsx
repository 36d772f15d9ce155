import { createDepartmentSchema } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Form, Input } from 'antd';
import { CatalogueFormModal, type CatalogueFormProps } from '../../components/catalogue/form-modal';
import { zodRule } from '../../components/form-rules';

const rule = zodRule(createDepartmentSchema);

/** Create and edit share this modal form; the rules are the API's own schema (shared). */
export function DepartmentFormModal(props: CatalogueFormProps) {
  const t = useTranslate();
  return (
    <CatalogueFormModal {...props} ns="departments" testId="department" rule={rule}>
      <Form.Item label={t('departments:fields.description')} name="description" rules={[rule]}>
        <Input.TextArea rows={3} maxLength={1000} />
      </Form.Item>
    </CatalogueFormModal>
  );
}
