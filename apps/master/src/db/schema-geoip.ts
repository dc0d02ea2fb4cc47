/** The GeoIP database an admin uploaded in place of the bundled one (migration 2026-11-28T1230-geoip). */
export interface GeoipDatabasesTable {
  /** Always 1: one uploaded database at a time. */
  id: number;
  sha256: string;
  size: number;
  name: string;
  database_type: string;
  built_at: number;
  uploaded_at: number;
  /** Where its records hold the country code: country_code or country.iso_code. */
  country_path: 'country_code' | 'country.iso_code';
  content: Uint8Array;
}

export interface GeoipTables {
  geoip_databases: GeoipDatabasesTable;
}
