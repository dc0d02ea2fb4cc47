import { Type } from 'typebox';

/**
 * Allow-lists for every value that ends up in nginx configuration. None admits CR, LF, NUL, quotes,
 * backslashes, braces, semicolons, `$`, `#` or backticks, so no value can close a string, start a
 * directive, interpolate a variable or open a comment. The agent re-validates with the same schemas.
 */

/** A DNS name in ASCII (IDNA punycode), optionally a leading `*.` wildcard; lowercase. */
export const DOMAIN_PATTERN =
  '^(\\*\\.)?(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$';
export const Domain = Type.String({
  pattern: DOMAIN_PATTERN,
  description: 'a lowercase domain name such as www.example.com or *.example.com (IDNA names in punycode)',
});

const IPV4 = '(?:(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const IPV6 = '[0-9a-fA-F:.]*:[0-9a-fA-F:.]*';
const HOSTNAME =
  '(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';

export const IpAddress = Type.String({ pattern: `^(?:${IPV4}|${IPV6})$`, description: 'an IPv4 or IPv6 address' });

/** Where an origin lives: an IP address or a host name. */
export const OriginAddress = Type.String({
  maxLength: 253,
  pattern: `^(?:${IPV4}|${IPV6}|${HOSTNAME})$`,
  description: 'an IPv4 or IPv6 address or a host name such as origin.example.com',
});

export const Port = Type.Integer({ minimum: 1, maximum: 65535, description: 'a port from 1 to 65535' });

export const HostHeader = Type.String({
  maxLength: 253,
  pattern: `^(?:|${HOSTNAME})$`,
  description: 'empty (send the visitor Host) or a host name such as origin.example.com',
});

export const HeaderName = Type.String({
  pattern: '^[A-Za-z0-9][A-Za-z0-9-]{0,63}$',
  description: '1 to 64 letters, digits or -, starting with a letter or digit',
});

export const HeaderValue = Type.String({
  maxLength: 1024,
  pattern: '^[A-Za-z0-9 !%&()*+,\\-./:<=>?@\\[\\]^_|~]*$',
  description: 'at most 1024 printable ASCII characters without quotes, \\ { } ; $ # or `',
});

export const PathPrefix = Type.String({
  maxLength: 512,
  pattern: '^/[A-Za-z0-9._~!*+,=:@%/-]*$',
  description: 'a path starting with / made of letters, digits and . _ ~ ! * + , = : @ % / -',
});

export const FileExtension = Type.String({
  pattern: '^[A-Za-z0-9]{1,16}$',
  description: '1 to 16 letters or digits, without the dot',
});

export const ObjectName = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029<>"\'`\\\\{};$#]+$',
  description: '1 to 64 characters without control characters, line separators, quotes, \\ < > { } ; $ # or `',
});
