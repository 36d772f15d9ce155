import { ArrowLeftOutlined, HomeOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Button, Result, Space, Tag, Typography } from 'antd';
import { useNavigate } from 'react-router';

interface AccessDeniedProps {
  /** The permissions the page needs; listed so the user can ask for exactly those. */
  required?: readonly string[];
  title?: string;
}

export function AccessDenied({ required = [], title }: AccessDeniedProps) {
  const t = useTranslate();
  const navigate = useNavigate();
  // antd's Result does not forward data-* attributes, hence the wrapper.
  return (
    <div data-testid="access-denied" role="alert">
      <Result
        status="403"
        title={title ?? t('accessDenied.title')}
        subTitle={
          <Space direction="vertical" size="small">
            <Typography.Text type="secondary">{t('accessDenied.message')}</Typography.Text>
            {required.length > 0 && (
              <span>
                <Typography.Text type="secondary">{t('accessDenied.required')} </Typography.Text>
                {required.map((code) => (
                  <Tag key={code}>{code}</Tag>
                ))}
              </span>
            )}
          </Space>
        }
        extra={[
          <Button key="back" icon={<ArrowLeftOutlined />} onClick={() => navigate(-1)}>
            {t('accessDenied.back')}
          </Button>,
          <Button key="home" type="primary" icon={<HomeOutlined />} onClick={() => navigate('/')}>
            {t('accessDenied.home')}
          </Button>,
        ]}
      />
    </div>
  );
}
