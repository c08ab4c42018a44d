import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121000000Accounts } from './Migration20261121000000Accounts.js';
import { Migration20261121010000Social } from './Migration20261121010000Social.js';
import { Migration20261122000000Uploads } from './Migration20261122000000Uploads.js';
import { Migration20261123010000SearchGallery } from './Migration20261123010000SearchGallery.js';
import { Migration20261123020000Messages } from './Migration20261123020000Messages.js';
import { Migration20261123030000Cubey } from './Migration20261123030000Cubey.js';
import { Migration20261124010000Content } from './Migration20261124010000Content.js';
import { Migration20261124020000Safety } from './Migration20261124020000Safety.js';
import { Migration20261124030000Moderation } from './Migration20261124030000Moderation.js';
import { Migration20261124040000Account } from './Migration20261124040000Account.js';
import { Migration20261124050000CubeyHeartbeat } from './Migration20261124050000CubeyHeartbeat.js';
import { Migration20261125000000Statistics } from './Migration20261125000000Statistics.js';
import { Migration20261125010000LivePostsByAuthor } from './Migration20261125010000LivePostsByAuthor.js';
import { Migration20261126010000UploadState } from './Migration20261126010000UploadState.js';
import { Migration20261126030000EmailChanges } from './Migration20261126030000EmailChanges.js';
import { Migration20261126040000LocalProfileImages } from './Migration20261126040000LocalProfileImages.js';
import { Migration20261127010000MentionsTags } from './Migration20261127010000MentionsTags.js';
import { Migration20261127020000PostImages } from './Migration20261127020000PostImages.js';
import { Migration20261127030000Bookmarks } from './Migration20261127030000Bookmarks.js';
import { Migration20261127040000Push } from './Migration20261127040000Push.js';
import { Migration20261127060000CubeyChats } from './Migration20261127060000CubeyChats.js';
import { Migration20261127070000CubeyTools } from './Migration20261127070000CubeyTools.js';
import { Migration20261128010000TagSearch } from './Migration20261128010000TagSearch.js';
import { Migration20261128020000CountersFillfactor } from './Migration20261128020000CountersFillfactor.js';
import { Migration20261128030000LivePostsByTime } from './Migration20261128030000LivePostsByTime.js';
import { Migration20261128040000CubeyReservations } from './Migration20261128040000CubeyReservations.js';
import { Migration20261128050000RateLimitCounts } from './Migration20261128050000RateLimitCounts.js';
import { Migration20261128163000FollowListsByTime } from './Migration20261128163000FollowListsByTime.js';
import { Migration20261129000000Reposts } from './Migration20261129000000Reposts.js';
import { Migration20261129003000Quotes } from './Migration20261129003000Quotes.js';
import { Migration20261129010000LinkCards } from './Migration20261129010000LinkCards.js';
import { Migration20261129020000Polls } from './Migration20261129020000Polls.js';
import { Migration20261129030000ContentWarnings } from './Migration20261129030000ContentWarnings.js';
import { Migration20261129040000NotificationGroups } from './Migration20261129040000NotificationGroups.js';
import { Migration20261129050000Language } from './Migration20261129050000Language.js';

/**
 * Applied in this order at start-up; add new migrations at the end. A migration that changes a
 * table changes its entity (entities/) in the same commit: schema.test.ts fails until they agree.
 */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261121000000Accounts', class: Migration20261121000000Accounts },
  { name: 'Migration20261121010000Social', class: Migration20261121010000Social },
  { name: 'Migration20261122000000Uploads', class: Migration20261122000000Uploads },
  { name: 'Migration20261123010000SearchGallery', class: Migration20261123010000SearchGallery },
  { name: 'Migration20261123020000Messages', class: Migration20261123020000Messages },
  { name: 'Migration20261123030000Cubey', class: Migration20261123030000Cubey },
  { name: 'Migration20261124010000Content', class: Migration20261124010000Content },
  { name: 'Migration20261124020000Safety', class: Migration20261124020000Safety },
  { name: 'Migration20261124030000Moderation', class: Migration20261124030000Moderation },
  { name: 'Migration20261124040000Account', class: Migration20261124040000Account },
  { name: 'Migration20261124050000CubeyHeartbeat', class: Migration20261124050000CubeyHeartbeat },
  { name: 'Migration20261125000000Statistics', class: Migration20261125000000Statistics },
  { name: 'Migration20261125010000LivePostsByAuthor', class: Migration20261125010000LivePostsByAuthor },
  { name: 'Migration20261126010000UploadState', class: Migration20261126010000UploadState },
  { name: 'Migration20261126030000EmailChanges', class: Migration20261126030000EmailChanges },
  { name: 'Migration20261126040000LocalProfileImages', class: Migration20261126040000LocalProfileImages },
  { name: 'Migration20261127010000MentionsTags', class: Migration20261127010000MentionsTags },
  { name: 'Migration20261127020000PostImages', class: Migration20261127020000PostImages },
  { name: 'Migration20261127030000Bookmarks', class: Migration20261127030000Bookmarks },
  { name: 'Migration20261127040000Push', class: Migration20261127040000Push },
  { name: 'Migration20261127060000CubeyChats', class: Migration20261127060000CubeyChats },
  { name: 'Migration20261127070000CubeyTools', class: Migration20261127070000CubeyTools },
  { name: 'Migration20261128010000TagSearch', class: Migration20261128010000TagSearch },
  { name: 'Migration20261128020000CountersFillfactor', class: Migration20261128020000CountersFillfactor },
  { name: 'Migration20261128030000LivePostsByTime', class: Migration20261128030000LivePostsByTime },
  { name: 'Migration20261128040000CubeyReservations', class: Migration20261128040000CubeyReservations },
  { name: 'Migration20261128050000RateLimitCounts', class: Migration20261128050000RateLimitCounts },
  { name: 'Migration20261128163000FollowListsByTime', class: Migration20261128163000FollowListsByTime },
  { name: 'Migration20261129000000Reposts', class: Migration20261129000000Reposts },
  { name: 'Migration20261129003000Quotes', class: Migration20261129003000Quotes },
  { name: 'Migration20261129010000LinkCards', class: Migration20261129010000LinkCards },
  { name: 'Migration20261129020000Polls', class: Migration20261129020000Polls },
  { name: 'Migration20261129030000ContentWarnings', class: Migration20261129030000ContentWarnings },
  { name: 'Migration20261129040000NotificationGroups', class: Migration20261129040000NotificationGroups },
  { name: 'Migration20261129050000Language', class: Migration20261129050000Language },
];
