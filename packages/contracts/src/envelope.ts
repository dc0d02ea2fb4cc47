import { type Static, type TSchema, Type } from 'typebox';

/** Every `/v1` response: `code` 0 on success, otherwise a stable snake_case error code. */
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({
    code: Type.Union([Type.Literal(0), Type.String()]),
    msg: Type.String(),
    data,
  });

export const ErrorEnvelope = Type.Object({
  code: Type.String(),
  msg: Type.String(),
  data: Type.Null(),
});
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;

/** List calls take `page` (1-based) and `limit` and answer `{list, total}`. */
export const ListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 20 })),
});
export type ListQuery = Static<typeof ListQuery>;

export const ListResult = <T extends TSchema>(item: T) =>
  Type.Object({
    list: Type.Array(item),
    total: Type.Integer({ minimum: 0 }),
    /** True when `total` is a lower bound: the list stopped counting there (broad searches). */
    total_capped: Type.Optional(Type.Boolean()),
  });
