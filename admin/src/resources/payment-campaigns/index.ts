export { CampaignList } from './list';
export { CampaignShowPage } from './show';
