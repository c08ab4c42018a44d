import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.js';

/**
 * The tokens Cubey spent for a member on one UTC day (from the provider's `usage`, or estimated):
 * what the daily limit (`CUBEY_DAILY_TOKENS`) and the metrics read.
 */
export const CubeyUsage = defineEntity({
  name: 'CubeyUsage',
  tableName: 'cubey_usage',
  indexes: [
    {
      name: 'cubey_usage_day_tokens_index',
      expression: 'create index "cubey_usage_day_tokens_index" on "cubey_usage" ("day", "tokens" desc)',
    },
  ],
  properties: {
    user: () => p.manyToOne(User).primary().deleteRule('cascade'),
    day: p.date().primary(),
    tokens: p.bigint('number').default(0),
  },
});
export type ICubeyUsage = InferEntity<typeof CubeyUsage>;
