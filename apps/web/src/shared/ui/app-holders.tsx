import { Modal, message, notification } from 'antd';
import type { useAppProps } from 'antd/es/app/context';
import { useEffect } from 'react';

/** antd App's message, notification and modal hooks with their holders (loaded by app-api.tsx when first needed). */
export default function AppHolders({ onReady }: { onReady: (api: useAppProps) => void }) {
  const [messageApi, messageHolder] = message.useMessage();
  const [notificationApi, notificationHolder] = notification.useNotification();
  const [modalApi, modalHolder] = Modal.useModal();
  useEffect(
    () => onReady({ message: messageApi, notification: notificationApi, modal: modalApi }),
    [onReady, messageApi, notificationApi, modalApi],
  );
  return (
    <>
      {modalHolder}
      {messageHolder}
      {notificationHolder}
    </>
  );
}
