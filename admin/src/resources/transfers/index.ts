export { TransferList } from './list';
export { RequestTransferModal } from './request-dialog';
