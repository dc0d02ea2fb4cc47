import { type Static, Type } from 'typebox';

/**
 * Country conditions: the edge looks each client address up in a MaxMind-format database (.mmdb)
 * with nginx's geoip2 module. The master ships one that may be redistributed (the npm package
 * `@ip-location-db/geo-whois-asn-country-mmdb`); an admin may upload a newer or commercial one in
 * its place. Agents get it with the config, by its sha256, and check the digest before using it.
 */

/** ISO 3166-1 alpha-2 codes (officially assigned, and XK for Kosovo, which registries use). */
export const COUNTRY_CODES: readonly string[] = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO ' +
  'JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR ' +
  'MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO ' +
  'RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV ' +
  'TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW'
).split(' ');

export const COUNTRY_PATTERN = '^[A-Z]{2}$';

/** A country, ISO 3166-1 alpha-2 in upper case. */
export const CountryCode = Type.String({
  pattern: COUNTRY_PATTERN,
  description: 'an ISO 3166-1 alpha-2 country code in upper case, such as CN or US',
});

/** The largest database an admin may upload (a city database is about 70 MB). */
export const MAX_GEOIP_BYTES = 128 * 1024 * 1024;

/**
 * Where a database keeps the country code of an address: `country_code` (ip-location-db) or
 * `country.iso_code` (MaxMind's GeoIP2/GeoLite2 and most commercial ones), found by the master.
 */
export const GeoipCountryPath = Type.Union([Type.Literal('country_code'), Type.Literal('country.iso_code')], {
  description: 'country_code or country.iso_code: where the records hold the country code',
});
export type GeoipCountryPath = Static<typeof GeoipCountryPath>;

/** What agents get with the config: the database's digest (they download it once by that digest). */
export const EdgeGeoip = Type.Object({
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'sha256 of the .mmdb file, hex' }),
  size: Type.Integer({ minimum: 1, description: 'bytes' }),
  /** Absent: country_code. */
  country_path: Type.Optional(GeoipCountryPath),
});
export type EdgeGeoip = Static<typeof EdgeGeoip>;

export const GeoipSource = Type.Union([Type.Literal('bundled'), Type.Literal('uploaded')], {
  description: 'bundled (the database the master ships) or uploaded (an admin sent it)',
});
export type GeoipSource = Static<typeof GeoipSource>;

/** The database the edges use now (GET /v1/geoip). */
export const GeoipDatabase = Type.Object({
  ...EdgeGeoip.properties,
  source: GeoipSource,
  /** The file's name as uploaded, or the npm package and file of the bundled one. */
  name: Type.String({ description: 'file name (uploaded) or npm package and file (bundled)' }),
  /** The database's own type, from its metadata (GeoLite2-Country, geo-whois-asn-country, ...). */
  database_type: Type.String({ description: 'database_type from the file metadata' }),
  /** When the database was built, from its metadata (Unix seconds). */
  built_at: Type.Integer({ minimum: 0, description: 'build_epoch from the file metadata, Unix seconds' }),
  /** When it was uploaded (Unix ms); 0 for the bundled one. */
  uploaded_at: Type.Integer({ minimum: 0, description: 'Unix ms; 0 for the bundled database' }),
});
export type GeoipDatabase = Static<typeof GeoipDatabase>;

/** Query of POST /v1/geoip (the body is the .mmdb file as application/octet-stream). */
export const UploadGeoipQuery = Type.Object(
  {
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        pattern: '^[A-Za-z0-9._ -]+$',
        description: 'the file name to show, 1 to 128 letters, digits, spaces and . _ -',
      }),
    ),
  },
  { additionalProperties: false },
);
export type UploadGeoipQuery = Static<typeof UploadGeoipQuery>;
