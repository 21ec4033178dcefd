"""The bundle of services the Discord layer is given (built in ``bot.__main__``)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.away import AwayService
from bot.services.campaign import CampaignService
from bot.services.combat import CombatService
from bot.services.encounters import EncounterService
from bot.services.member_data import MemberDataService
from bot.services.member_settings import MemberSettingsService
from bot.services.moderation import ModerationService
from bot.services.notices import NoticeService
from bot.services.rehearsal import RehearsalService
from bot.services.reminders import Reminders
from bot.services.server_admin import ServerAdminService
from bot.services.sheets import SheetService
from bot.services.tables import TableService


@dataclass(frozen=True)
class Services:
    """Every use-case service, constructed once at start-up."""

    encounters: EncounterService
    sheets: SheetService
    combat: CombatService
    moderation: ModerationService
    tables: TableService
    server_admin: ServerAdminService
    member_data: MemberDataService
    notices: NoticeService
    campaign: CampaignService
    member_settings: MemberSettingsService
    reminders: Reminders
    away: AwayService
    rehearsal: RehearsalService
