import { type Static, Type } from 'typebox';
import { ObjectName } from './fields.ts';

/** A certificate as calls return it: never the private key. */
export const Cert = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  name: Type.String(),
  names: Type.Array(Type.String(), { description: 'DNS names the certificate covers' }),
  issuer: Type.String(),
  not_before: Type.String(),
  not_after: Type.String(),
  created_at: Type.String(),
});
export type Cert = Static<typeof Cert>;

export const UploadCertBody = Type.Object(
  {
    name: Type.Optional(ObjectName),
    cert: Type.String({ maxLength: 65_536, description: 'PEM certificate followed by its chain, leaf first' }),
    key: Type.String({ maxLength: 16_384, description: 'PEM private key of the certificate' }),
  },
  { additionalProperties: false },
);
export type UploadCertBody = Static<typeof UploadCertBody>;
