/// The index's schema: its numbered migrations (`StateFile` applies them), with why each was
/// needed.
extension AssetIndex {
    static let migrations = [
        """
        CREATE TABLE assets (
            path TEXT PRIMARY KEY,        -- canonical absolute path
            size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, ctime_ns INTEGER NOT NULL,
            inode INTEGER NOT NULL, device INTEGER NOT NULL,
            format TEXT NOT NULL, kind TEXT NOT NULL,   -- kind before Live Photo pairing
            truncated INTEGER NOT NULL, error TEXT, content_id TEXT,
            clock TEXT,                   -- 'wall', 'instant' or NULL (no capture date)
            local_seconds INTEGER, nanosecond INTEGER, fraction_digits INTEGER, has_time INTEGER,
            offset_seconds INTEGER, offset_source TEXT, source TEXT
        );
        """,
        // v2: rows are read folder by folder (bounded memory), so each row names its folder.
        // The index is a cache: old rows are simply dropped and rebuilt on the next run.
        """
        DROP TABLE assets;
        CREATE TABLE assets (
            path TEXT PRIMARY KEY,        -- canonical absolute path
            folder TEXT NOT NULL,         -- canonical path of the folder that lists it
            size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, ctime_ns INTEGER NOT NULL,
            inode INTEGER NOT NULL, device INTEGER NOT NULL,
            format TEXT NOT NULL, kind TEXT NOT NULL,   -- kind before Live Photo pairing
            truncated INTEGER NOT NULL, error TEXT, content_id TEXT,
            clock TEXT,                   -- 'wall', 'instant' or NULL (no capture date)
            local_seconds INTEGER, nanosecond INTEGER, fraction_digits INTEGER, has_time INTEGER,
            offset_seconds INTEGER, offset_source TEXT, source TEXT
        );
        CREATE INDEX assets_by_folder ON assets(folder);
        """,
        // v3: rows clustered by folder (WITHOUT ROWID, key (folder, path)): a folder's rows are
        // one contiguous range, and one b-tree is written instead of three. A table of the
        // folders seen lets vanished folders be found without scanning the rows.
        """
        DROP TABLE assets;
        CREATE TABLE assets (
            folder TEXT NOT NULL,         -- canonical path of the folder that lists it
            path TEXT NOT NULL,           -- canonical absolute path
            size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, ctime_ns INTEGER NOT NULL,
            inode INTEGER NOT NULL, device INTEGER NOT NULL,
            format TEXT NOT NULL, kind TEXT NOT NULL,   -- kind before Live Photo pairing
            truncated INTEGER NOT NULL, error TEXT, content_id TEXT,
            clock TEXT,                   -- 'wall', 'instant' or NULL (no capture date)
            local_seconds INTEGER, nanosecond INTEGER, fraction_digits INTEGER, has_time INTEGER,
            offset_seconds INTEGER, offset_source TEXT, source TEXT,
            PRIMARY KEY (folder, path)
        ) WITHOUT ROWID;
        CREATE TABLE folders (folder TEXT PRIMARY KEY) WITHOUT ROWID;
        """,
        // v4: a movie's duration, which the Live Photo rule asks for (a short clip). Old rows
        // lack it, so they are dropped and rebuilt like any cache.
        """
        DROP TABLE assets;
        DELETE FROM folders;
        CREATE TABLE assets (
            folder TEXT NOT NULL,         -- canonical path of the folder that lists it
            path TEXT NOT NULL,           -- canonical absolute path
            size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, ctime_ns INTEGER NOT NULL,
            inode INTEGER NOT NULL, device INTEGER NOT NULL,
            format TEXT NOT NULL, kind TEXT NOT NULL,   -- kind before Live Photo pairing
            truncated INTEGER NOT NULL, error TEXT, content_id TEXT,
            clock TEXT,                   -- 'wall', 'instant' or NULL (no capture date)
            local_seconds INTEGER, nanosecond INTEGER, fraction_digits INTEGER, has_time INTEGER,
            offset_seconds INTEGER, offset_source TEXT, source TEXT,
            duration REAL,                -- seconds, movies only
            PRIMARY KEY (folder, path)
        ) WITHOUT ROWID;
        """,
        // v5: `error` holds the error's code (and its detail after a tab), not its message,
        // which rows were decoded from by parsing. Rows with an error are dropped and parsed
        // again; the others are unchanged.
        """
        DELETE FROM assets WHERE error IS NOT NULL;
        """,
        // v6: the sidecar a `sidecar.xmp` or `sidecar.takeout` date came from (`captured.sidecar`),
        // so an answer from the index names it as a fresh parse does. Old rows have none, and
        // none of them has a sidecar's date.
        """
        ALTER TABLE assets ADD COLUMN sidecar TEXT;
        """,
        // v7: what a parse yields changed for files already indexed: new formats (WebM, MKV,
        // JPEG XL, RW2 and ORF were errors or `tiff`), Motion Photos (a `photo` before), dates
        // from desktop and messenger names and from sidecars. Every row is dropped and the next
        // scan parses once. Also a Motion Photo's evidence (`motionPhoto.google`/`.samsung`),
        // which the file states itself (a pair's evidence is decided anew by each scan).
        // Whatever changes a parse's result for an unchanged file comes with such a migration.
        """
        DELETE FROM assets;
        DELETE FROM folders;
        ALTER TABLE assets ADD COLUMN motion_photo TEXT;
        """,
        // v8: a summary per folder (`FolderSummary`): a digest of its files' names and keys,
        // how many candidates it holds and the span of their captures, so a scan passes over
        // a folder recency certainly turns down with a stat of each file and no row read.
        // Folders written before have none (NULL) until their next scan. A migration that
        // drops rows clears `folders` too (as v7 does), and with it every summary.
        """
        ALTER TABLE folders ADD COLUMN digest INTEGER;
        ALTER TABLE folders ADD COLUMN files INTEGER;
        ALTER TABLE folders ADD COLUMN low REAL;
        ALTER TABLE folders ADD COLUMN high REAL;
        """,
        // v9: what a parse yields changed again for files already indexed: dates from the GPS
        // fix's time (EXIF and XMP) and from IPTC DateCreated, and from more names (macOS's
        // other languages, scrot, grim, ksnip, phone screen recorders, Realme, Google Camera's
        // panoramas and bursts, Facebook, KakaoTalk, Viber, Steam). Every row and summary is
        // dropped; the next scan parses once.
        """
        DELETE FROM assets;
        DELETE FROM folders;
        """,
        // v10: parses changed again: offsets from GPS and file times only where a zone uses
        // them, none from a file time agreeing at +00:00 (a FAT card's local time read as
        // UTC); XMP in TIFFs and movies; Signal for Android's names. Every row and summary
        // is dropped; the next scan parses once.
        """
        DELETE FROM assets;
        DELETE FROM folders;
        """,
        // v11: a PNG's `Software` text is its software, and a screenshot tool's name there is
        // screenshot evidence (a renamed GNOME screenshot was a `photo`); GNOME's `Creation
        // Time` is read; Firefox's, Snipaste's and CleanShot's names are screenshots' with a
        // date; screen recorders', DJI's and LINE's names are dated, and Open Camera's `…Z`
        // names are UTC. Every row and summary is dropped; the next scan parses once.
        """
        DELETE FROM assets;
        DELETE FROM folders;
        """,
        // v12: names with a title before the time (NVIDIA ShadowPlay's captures, Xbox Game
        // Bar's) and ChromeOS's are dated, theirs screenshots' are screenshots; MPEG transport streams
        // (AVCHD's .MTS, dated by their MDPM) and program streams (.MPG, .VOB) are videos,
        // where they were unsupported. Every row and summary is dropped; the next scan parses
        // once.
        """
        DELETE FROM assets;
        DELETE FROM folders;
        """,
        // v13: a date of the year or the month only (XMP `1987-05`, IPTC `19870500`) is read
        // as the period's first day, where it was skipped as malformed and a scan was dated by
        // its file. Every row and summary is dropped; the next scan parses once.
        """
        DELETE FROM assets;
        DELETE FROM folders;
        """,
        // v14: GPSTimeStamp stored as SRATIONAL gives its offset, an IFD0 DateTimeOriginal its
        // own OffsetTimeOriginal and sub-seconds, and Google's portrait bursts and WhatsApp's
        // 12-hour names, Dropbox uploads and macOS screen recordings their dates, where rows
        // kept none. Dropped as for v13.
        """
        DELETE FROM assets;
        DELETE FROM folders;
        """,
        // v15: a name's date to the minute or the second placed at a file time inside it, an
        // empty file with a picture's name dated by its modification time (a placeholder), and
        // folder spans that reach a video's recording end. Dropped as for v13.
        """
        DELETE FROM assets;
        DELETE FROM folders;
        """,
        // v16: an Android movie's `mvhd` time is the end of its recording (its start is that
        // less the duration), where rows kept the end as the capture; MATE's screenshot names
        // and Flameshot's names with seconds dated (to the second); a movie container with
        // sound only is no video; cameras' own AVI dates read. Dropped as for v13.
        """
        DELETE FROM assets;
        DELETE FROM folders;
        """,
        // v17: Flash Video (`.flv`, older OBS recordings) and ASF (`.wmv`, `.asf`) are videos,
        // sized and dated, where rows held them as not media; vokoscreenNG's names are dated.
        // Dropped as for v13.
        """
        DELETE FROM assets;
        DELETE FROM folders;
        """,
        // v18: an undated still modified more than a minute after its birth (written anew in
        // place) is dated by its modification, where rows kept its birth. Dropped as for v13.
        """
        DELETE FROM assets;
        DELETE FROM folders;
        """,
    ]
}
