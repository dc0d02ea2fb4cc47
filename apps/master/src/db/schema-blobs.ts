/** The blob store (migration 2026-11-28T1500-blobs): files every master must be able to serve. */

export interface BlobsTable {
  /** A random UUID, chosen before the first chunk is written. */
  id: string;
  /** agent-bundle, master-bundle, database-backup, database-export. */
  kind: string;
  /** A file name made by the master (never one a caller sent), for downloads. */
  name: string;
  sha256: string;
  size: number;
  created_at: number;
}

export interface BlobChunksTable {
  blob_id: string;
  /** 0, 1, 2, … in the order of the content. */
  seq: number;
  content: Uint8Array;
  created_at: number;
}

export interface BlobTables {
  blobs: BlobsTable;
  blob_chunks: BlobChunksTable;
}
