CREATE TABLE members (login TEXT PRIMARY KEY, full_name TEXT NOT NULL, age INTEGER NOT NULL, points INTEGER NOT NULL) STRICT;
INSERT INTO members VALUES ('u_431', 'Delta', 285, 127);
INSERT INTO members VALUES ('u_884', 'Orbit', 353, 703);
INSERT INTO members VALUES ('u_452', 'Alpha, sierra', 93, 95);
