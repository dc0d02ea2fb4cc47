import { type Static, type TSchema, Type } from 'typebox';

/** Every `/v1` response: `code` 0 on success, otherwise a stable snake_case error code. */
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({
    code: Type.Union([Type.Literal(0), Type.String()]),
    msg: Type.String(),
    data,
  });

export const ErrorEnvelope = Type.Object({
  code: Type.String({ description: 'a stable snake_case error code' }),
  msg: Type.String({ description: 'what failed, in English, for API users' }),
  data: Type.Null(),
  params: Type.Optional(
    Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]), {
      description:
        'the figures of the failure, for clients that word it themselves: invalid_param {field, rule}; balance_insufficient {balance, price, short} (money as "0.00"); limit_reached {limit, allowed, used, package}; channel_unavailable {channel}',
    }),
  ),
});
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;

/** Pages a list serves: (MAX_PAGE - 1) * MAX_LIMIT stays a safe integer, so an offset is always one. */
export const MAX_PAGE = 1_000_000;
export const MAX_LIMIT = 1000;

/** The one paging pair of every list call; query values arrive as text and must be whole numbers in range. */
export const Page = Type.Integer({
  minimum: 1,
  maximum: MAX_PAGE,
  default: 1,
  description: `a whole number from 1 to ${MAX_PAGE}`,
});
export const Limit = Type.Integer({
  minimum: 1,
  maximum: MAX_LIMIT,
  default: 20,
  description: `a whole number from 1 to ${MAX_LIMIT}`,
});

/** List calls take `page` (1-based) and `limit` and answer `{list, total}`; lists with filters spread these. */
export const ListQuery = Type.Object({ page: Type.Optional(Page), limit: Type.Optional(Limit) });
export type ListQuery = Static<typeof ListQuery>;

export const ListResult = <T extends TSchema>(item: T) =>
  Type.Object({
    list: Type.Array(item),
    total: Type.Integer({ minimum: 0 }),
    /** True when `total` is a lower bound: the list stopped counting there (broad searches). */
    total_capped: Type.Optional(Type.Boolean()),
  });
