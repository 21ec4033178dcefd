-- How the member who set a standing reaction was the fight's GM when they set it, when they
-- were one by the server's GM role (``role:<id>``) or by Manage Channels (``manage-channels``)
-- rather than by holding its GM seat, controlling the combatant or standing in for its player
-- (fix21). A standing reaction applies only while its setter still acts for the combatant
-- (bot.services.standing.applies); a GM by role or permission was never the seat holder, so
-- theirs never applied. Rows set before this migration are '' (as the seat holder's: checked
-- as before).
ALTER TABLE standing_reactions ADD COLUMN set_as TEXT NOT NULL DEFAULT '';
