CREATE TABLE members (login TEXT PRIMARY KEY, full_name TEXT NOT NULL, age INTEGER NOT NULL, points INTEGER NOT NULL) STRICT;
INSERT INTO members VALUES ('u_593', 'Alpha, sierra', 335, 661);
INSERT INTO members VALUES ('u_589', 'Tango', 318, 599);
