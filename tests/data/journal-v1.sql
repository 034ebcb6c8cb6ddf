BEGIN TRANSACTION;
CREATE TABLE carried (
    run INTEGER NOT NULL, request INTEGER NOT NULL, record INTEGER NOT NULL,
    PRIMARY KEY (run, request, record)
) WITHOUT ROWID;
INSERT INTO "carried" VALUES(1,1,0);
INSERT INTO "carried" VALUES(1,2,1);
INSERT INTO "carried" VALUES(2,1,0);
INSERT INTO "carried" VALUES(2,2,0);
INSERT INTO "carried" VALUES(2,1,1);
INSERT INTO "carried" VALUES(2,3,1);
CREATE TABLE files (
    run INTEGER NOT NULL, position INTEGER NOT NULL, path TEXT NOT NULL, sha256 TEXT, size INTEGER,
    PRIMARY KEY (run, position)
) WITHOUT ROWID;
INSERT INTO "files" VALUES(1,0,'/data/ok.csv','0802270789902ee5510e7878c0d1baa7c162cf828446c980fc700e6992e660f4',108);
INSERT INTO "files" VALUES(2,0,'/data/mixed.csv','1257f7005b9c1434916c3b02e44e072b078f94719f950d996b52088ca213433c',108);
CREATE TABLE records (
    run INTEGER NOT NULL, idx INTEGER NOT NULL,
    propertyid TEXT NOT NULL, roomid TEXT NOT NULL, rateid TEXT NOT NULL,
    start TEXT NOT NULL, end TEXT NOT NULL, value TEXT NOT NULL, fragment TEXT, refs TEXT NOT NULL,
    PRIMARY KEY (run, idx)
) WITHOUT ROWID;
INSERT INTO "records" VALUES(1,0,'HTL001','DBL','','2027-01-01','2027-01-10','2','{"enddateymd":"2027-01-10","roomid":"DBL","startdateymd":"2027-01-01","threshold":"2"}','[0]');
INSERT INTO "records" VALUES(1,1,'HTL002','DBL','','2027-01-01','2027-01-03','1','{"enddateymd":"2027-01-03","roomid":"DBL","startdateymd":"2027-01-01","threshold":"1"}','[1]');
INSERT INTO "records" VALUES(2,0,'HTL001','DBL','','2027-01-05','2027-01-06','3','{"enddateymd":"2027-01-06","roomid":"DBL","startdateymd":"2027-01-05","threshold":"3"}','[0]');
INSERT INTO "records" VALUES(2,1,'HTL001','XXX','','2027-01-01','2027-01-05','4','{"enddateymd":"2027-01-05","roomid":"XXX","startdateymd":"2027-01-01","threshold":"4"}','[1]');
CREATE TABLE requests (
    run INTEGER NOT NULL, id INTEGER NOT NULL, parent INTEGER, propertyid TEXT NOT NULL,
    url TEXT NOT NULL, body TEXT NOT NULL, state TEXT NOT NULL, transient INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0, http_status INTEGER, trackingid TEXT, errors TEXT, response TEXT,
    seconds REAL NOT NULL DEFAULT 0, sent TEXT, answered TEXT, ack INTEGER,
    PRIMARY KEY (run, id)
) WITHOUT ROWID;
INSERT INTO "requests" VALUES(1,1,NULL,'HTL001','http://127.0.0.1:1/v2/push_ari/cpbA1/sellthresholdupdate','{"sharepost":"sand…0001","sourceid":"cpbA1","propertyid":"HTL001","action":"sellthresholdupdate","data":[{"startdateymd":"2027-01-01","enddateymd":"2027-01-10","roomid":"DBL","threshold":"2"}]}','ok',0,1,200,'sbx-6efe5031010a4b3b9fbd53b3a1271378','[]','{"success":true,"trackingid":"sbx-6efe5031010a4b3b9fbd53b3a1271378"}',1.43717246999585768207e-01,'2026-11-24T03:42:18.909+00:00','2026-11-24T03:42:19.063+00:00',1);
INSERT INTO "requests" VALUES(1,2,NULL,'HTL002','http://127.0.0.1:1/v2/push_ari/cpbA1/sellthresholdupdate','{"sharepost":"sand…0001","sourceid":"cpbA1","propertyid":"HTL002","action":"sellthresholdupdate","data":[{"startdateymd":"2027-01-01","enddateymd":"2027-01-03","roomid":"DBL","threshold":"1"}]}','ok',0,1,200,'sbx-1738131a43d249dea03cf19f3cb56e92','[]','{"success":true,"trackingid":"sbx-1738131a43d249dea03cf19f3cb56e92"}',4.03429920006601605564e-02,'2026-11-24T03:42:19.023+00:00','2026-11-24T03:42:19.064+00:00',2);
INSERT INTO "requests" VALUES(2,1,NULL,'HTL001','http://127.0.0.1:1/v2/push_ari/cpbA1/sellthresholdupdate','{"sharepost":"sand…0001","sourceid":"cpbA1","propertyid":"HTL001","action":"sellthresholdupdate","data":[{"startdateymd":"2027-01-05","enddateymd":"2027-01-06","roomid":"DBL","threshold":"3"},{"startdateymd":"2027-01-01","enddateymd":"2027-01-05","roomid":"XXX","threshold":"4"}]}','split',0,1,422,'sbx-b52f62c0489746fa96b06d0753a207ee','[{"code":451,"http_status":422,"message":"invalid room mapping"}]','{"success":false,"errors":[{"code":451,"message":"invalid room mapping"}],"trackingid":"sbx-b52f62c0489746fa96b06d0753a207ee"}',8.15227310013142414391e-02,'2026-11-24T03:42:20.100+00:00','2026-11-24T03:42:20.185+00:00',NULL);
INSERT INTO "requests" VALUES(2,2,1,'HTL001','http://127.0.0.1:1/v2/push_ari/cpbA1/sellthresholdupdate','{"sharepost":"sand…0001","sourceid":"cpbA1","propertyid":"HTL001","action":"sellthresholdupdate","data":[{"startdateymd":"2027-01-05","enddateymd":"2027-01-06","roomid":"DBL","threshold":"3"}]}','ok',0,1,200,'sbx-40082e8cf47449d08cc6af80cc13843f','[]','{"success":true,"trackingid":"sbx-40082e8cf47449d08cc6af80cc13843f"}',4.73712100028933491557e-03,'2026-11-24T03:42:20.185+00:00','2026-11-24T03:42:20.190+00:00',3);
INSERT INTO "requests" VALUES(2,3,1,'HTL001','http://127.0.0.1:1/v2/push_ari/cpbA1/sellthresholdupdate','{"sharepost":"sand…0001","sourceid":"cpbA1","propertyid":"HTL001","action":"sellthresholdupdate","data":[{"startdateymd":"2027-01-01","enddateymd":"2027-01-05","roomid":"XXX","threshold":"4"}]}','failed',0,1,422,'sbx-aab67ad23920410cbc34fa2e08067050','[{"code":451,"http_status":422,"message":"invalid room mapping"}]','{"success":false,"errors":[{"code":451,"message":"invalid room mapping"}],"trackingid":"sbx-aab67ad23920410cbc34fa2e08067050"}',4.75755099978414364159e-03,'2026-11-24T03:42:20.186+00:00','2026-11-24T03:42:20.191+00:00',NULL);
CREATE TABLE rows (
    run INTEGER NOT NULL, idx INTEGER NOT NULL, source TEXT NOT NULL, line INTEGER NOT NULL,
    propertyid TEXT, roomid TEXT, rateid TEXT, dates TEXT, value TEXT,
    status TEXT, trackingids TEXT, errors TEXT, note TEXT,
    PRIMARY KEY (run, idx)
) WITHOUT ROWID;
INSERT INTO "rows" VALUES(1,0,'/data/ok.csv',2,'HTL001','DBL','','2027-01-01..2027-01-10','2','ok','["sbx-6efe5031010a4b3b9fbd53b3a1271378"]','[]','');
INSERT INTO "rows" VALUES(1,1,'/data/ok.csv',3,'HTL002','DBL','','2027-01-01..2027-01-03','1','ok','["sbx-1738131a43d249dea03cf19f3cb56e92"]','[]','');
INSERT INTO "rows" VALUES(2,0,'/data/mixed.csv',2,'HTL001','DBL','','2027-01-05..2027-01-06','3','ok','["sbx-40082e8cf47449d08cc6af80cc13843f"]','[]','');
INSERT INTO "rows" VALUES(2,1,'/data/mixed.csv',3,'HTL001','XXX','','2027-01-01..2027-01-05','4','failed','["sbx-aab67ad23920410cbc34fa2e08067050"]','[{"code":451,"http_status":422,"message":"invalid room mapping"}]','');
CREATE TABLE runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    command TEXT NOT NULL,
    operation TEXT NOT NULL,
    profile TEXT,
    base_url TEXT NOT NULL,
    source_id TEXT NOT NULL,
    options TEXT NOT NULL,
    retry_of INTEGER,
    started TEXT NOT NULL,
    ended TEXT,
    summary TEXT,
    exit_code INTEGER
);
INSERT INTO "runs" VALUES(1,'python -m ari_cli threshold push','threshold',NULL,'http://127.0.0.1:1','cpbA1','{"batch_size":50,"changed_only":false,"concurrency":4,"data_form":"list","no_merge":false,"overlaps":"error","rate":0.0,"retries":3,"sandbox":false,"skip_invalid":false,"timeout":30.0,"today":"2027-01-01"}',NULL,'2026-11-24T03:42:18.788+00:00','2026-11-24T03:42:19.070+00:00','{"failed":0,"invalid":0,"not sent":0,"ok":2,"planned":0,"records":2,"requests":2,"rows":2,"skipped":0}',0);
INSERT INTO "runs" VALUES(2,'python -m ari_cli threshold push','threshold',NULL,'http://127.0.0.1:1','cpbA1','{"batch_size":50,"changed_only":false,"concurrency":4,"data_form":"list","no_merge":false,"overlaps":"error","rate":0.0,"retries":3,"sandbox":false,"skip_invalid":false,"timeout":30.0,"today":"2027-01-01"}',NULL,'2026-11-24T03:42:19.906+00:00','2026-11-24T03:42:20.192+00:00','{"failed":1,"invalid":0,"not sent":0,"ok":1,"planned":0,"records":2,"requests":3,"rows":2,"skipped":0}',1);
CREATE INDEX records_by_key ON records (propertyid, roomid, rateid, start);
CREATE INDEX carried_by_record ON carried (run, record);
CREATE INDEX requests_by_trackingid ON requests (trackingid);
CREATE INDEX requests_by_ack ON requests (ack);
DELETE FROM "sqlite_sequence";
INSERT INTO "sqlite_sequence" VALUES('runs',2);
COMMIT;
PRAGMA user_version=1;
