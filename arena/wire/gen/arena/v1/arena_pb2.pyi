from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BotMessage(_message.Message):
    __slots__ = ("hello", "reply")
    HELLO_FIELD_NUMBER: _ClassVar[int]
    REPLY_FIELD_NUMBER: _ClassVar[int]
    hello: Hello
    reply: Reply
    def __init__(self, hello: _Optional[_Union[Hello, _Mapping]] = ..., reply: _Optional[_Union[Reply, _Mapping]] = ...) -> None: ...

class Hello(_message.Message):
    __slots__ = ("token", "bot_name", "bot_version", "protocol_version", "turn_notices")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_VERSION_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    TURN_NOTICES_FIELD_NUMBER: _ClassVar[int]
    token: str
    bot_name: str
    bot_version: str
    protocol_version: int
    turn_notices: bool
    def __init__(self, token: _Optional[str] = ..., bot_name: _Optional[str] = ..., bot_version: _Optional[str] = ..., protocol_version: _Optional[int] = ..., turn_notices: _Optional[bool] = ...) -> None: ...

class Reply(_message.Message):
    __slots__ = ("seq", "action", "text")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    seq: int
    action: Action
    text: str
    def __init__(self, seq: _Optional[int] = ..., action: _Optional[_Union[Action, _Mapping]] = ..., text: _Optional[str] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ("kind", "amount", "card", "cards", "seat", "declare", "color", "bank")
    KIND_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DECLARE_FIELD_NUMBER: _ClassVar[int]
    COLOR_FIELD_NUMBER: _ClassVar[int]
    BANK_FIELD_NUMBER: _ClassVar[int]
    kind: str
    amount: int
    card: str
    cards: _containers.RepeatedScalarFieldContainer[str]
    seat: int
    declare: str
    color: str
    bank: int
    def __init__(self, kind: _Optional[str] = ..., amount: _Optional[int] = ..., card: _Optional[str] = ..., cards: _Optional[_Iterable[str]] = ..., seat: _Optional[int] = ..., declare: _Optional[str] = ..., color: _Optional[str] = ..., bank: _Optional[int] = ...) -> None: ...

class RefereeMessage(_message.Message):
    __slots__ = ("match_start", "decision", "event", "deal_result", "match_end", "refused", "turn")
    MATCH_START_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    DEAL_RESULT_FIELD_NUMBER: _ClassVar[int]
    MATCH_END_FIELD_NUMBER: _ClassVar[int]
    REFUSED_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    match_start: MatchStart
    decision: DecisionRequest
    event: Event
    deal_result: DealResult
    match_end: MatchEnd
    refused: str
    turn: Turn
    def __init__(self, match_start: _Optional[_Union[MatchStart, _Mapping]] = ..., decision: _Optional[_Union[DecisionRequest, _Mapping]] = ..., event: _Optional[_Union[Event, _Mapping]] = ..., deal_result: _Optional[_Union[DealResult, _Mapping]] = ..., match_end: _Optional[_Union[MatchEnd, _Mapping]] = ..., refused: _Optional[str] = ..., turn: _Optional[_Union[Turn, _Mapping]] = ...) -> None: ...

class SeatInfo(_message.Message):
    __slots__ = ("seat", "name", "version")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    version: str
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ..., version: _Optional[str] = ...) -> None: ...

class Rules(_message.Message):
    __slots__ = ("preset", "options")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    PRESET_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    preset: str
    options: _containers.ScalarMap[str, str]
    def __init__(self, preset: _Optional[str] = ..., options: _Optional[_Mapping[str, str]] = ...) -> None: ...

class TimeControl(_message.Message):
    __slots__ = ("per_move_s", "bank_s", "increment_s", "startup_s")
    PER_MOVE_S_FIELD_NUMBER: _ClassVar[int]
    BANK_S_FIELD_NUMBER: _ClassVar[int]
    INCREMENT_S_FIELD_NUMBER: _ClassVar[int]
    STARTUP_S_FIELD_NUMBER: _ClassVar[int]
    per_move_s: float
    bank_s: float
    increment_s: float
    startup_s: float
    def __init__(self, per_move_s: _Optional[float] = ..., bank_s: _Optional[float] = ..., increment_s: _Optional[float] = ..., startup_s: _Optional[float] = ...) -> None: ...

class MatchStart(_message.Message):
    __slots__ = ("protocol_version", "match_id", "seat", "seats", "rules", "time_control")
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    protocol_version: int
    match_id: str
    seat: int
    seats: _containers.RepeatedCompositeFieldContainer[SeatInfo]
    rules: Rules
    time_control: TimeControl
    def __init__(self, protocol_version: _Optional[int] = ..., match_id: _Optional[str] = ..., seat: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[SeatInfo, _Mapping]]] = ..., rules: _Optional[_Union[Rules, _Mapping]] = ..., time_control: _Optional[_Union[TimeControl, _Mapping]] = ...) -> None: ...

class DecisionRequest(_message.Message):
    __slots__ = ("seq", "observation", "legal_actions", "legal_texts", "time_limit_s", "bank_left_s", "events")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    LEGAL_TEXTS_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_S_FIELD_NUMBER: _ClassVar[int]
    BANK_LEFT_S_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    seq: int
    observation: Observation
    legal_actions: _containers.RepeatedCompositeFieldContainer[Action]
    legal_texts: _containers.RepeatedScalarFieldContainer[str]
    time_limit_s: float
    bank_left_s: float
    events: _containers.RepeatedCompositeFieldContainer[Event]
    def __init__(self, seq: _Optional[int] = ..., observation: _Optional[_Union[Observation, _Mapping]] = ..., legal_actions: _Optional[_Iterable[_Union[Action, _Mapping]]] = ..., legal_texts: _Optional[_Iterable[str]] = ..., time_limit_s: _Optional[float] = ..., bank_left_s: _Optional[float] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ...) -> None: ...

class Turn(_message.Message):
    __slots__ = ("seat", "phase", "deal_number", "per_move_s", "events", "observation")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    DEAL_NUMBER_FIELD_NUMBER: _ClassVar[int]
    PER_MOVE_S_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    phase: str
    deal_number: int
    per_move_s: float
    events: _containers.RepeatedCompositeFieldContainer[Event]
    observation: Observation
    def __init__(self, seat: _Optional[int] = ..., phase: _Optional[str] = ..., deal_number: _Optional[int] = ..., per_move_s: _Optional[float] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., observation: _Optional[_Union[Observation, _Mapping]] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("deal_number", "seat", "kind", "action", "cards", "text")
    DEAL_NUMBER_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    deal_number: int
    seat: int
    kind: str
    action: Action
    cards: _containers.RepeatedScalarFieldContainer[str]
    text: str
    def __init__(self, deal_number: _Optional[int] = ..., seat: _Optional[int] = ..., kind: _Optional[str] = ..., action: _Optional[_Union[Action, _Mapping]] = ..., cards: _Optional[_Iterable[str]] = ..., text: _Optional[str] = ...) -> None: ...

class DealResult(_message.Message):
    __slots__ = ("deal_number", "dealer", "declarer", "bid", "contract", "made", "deal_scores", "changes", "totals", "notes", "events")
    DEAL_NUMBER_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    MADE_FIELD_NUMBER: _ClassVar[int]
    DEAL_SCORES_FIELD_NUMBER: _ClassVar[int]
    CHANGES_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    deal_number: int
    dealer: int
    declarer: int
    bid: int
    contract: int
    made: bool
    deal_scores: _containers.RepeatedScalarFieldContainer[int]
    changes: _containers.RepeatedScalarFieldContainer[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    notes: _containers.RepeatedScalarFieldContainer[str]
    events: _containers.RepeatedCompositeFieldContainer[Event]
    def __init__(self, deal_number: _Optional[int] = ..., dealer: _Optional[int] = ..., declarer: _Optional[int] = ..., bid: _Optional[int] = ..., contract: _Optional[int] = ..., made: _Optional[bool] = ..., deal_scores: _Optional[_Iterable[int]] = ..., changes: _Optional[_Iterable[int]] = ..., totals: _Optional[_Iterable[int]] = ..., notes: _Optional[_Iterable[str]] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ...) -> None: ...

class MatchEnd(_message.Message):
    __slots__ = ("totals", "places", "statuses", "reason", "events")
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    PLACES_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    places: _containers.RepeatedScalarFieldContainer[int]
    statuses: _containers.RepeatedScalarFieldContainer[str]
    reason: str
    events: _containers.RepeatedCompositeFieldContainer[Event]
    def __init__(self, totals: _Optional[_Iterable[int]] = ..., places: _Optional[_Iterable[int]] = ..., statuses: _Optional[_Iterable[str]] = ..., reason: _Optional[str] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ("seat", "players", "phase", "to_act", "deal_number", "dealer", "active_seats", "hand", "hand_sizes", "totals", "auction", "bid", "bidder", "declarer", "contract", "talon", "talon_count", "given", "discarded", "trump", "marriages", "trick", "leader", "tricks", "tricks_won", "points_won", "seat_states", "lottery", "stock_size", "bank_sizes", "forced_seat")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    DEAL_NUMBER_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_SEATS_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    AUCTION_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    BIDDER_FIELD_NUMBER: _ClassVar[int]
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    TALON_FIELD_NUMBER: _ClassVar[int]
    TALON_COUNT_FIELD_NUMBER: _ClassVar[int]
    GIVEN_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    MARRIAGES_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    TRICKS_WON_FIELD_NUMBER: _ClassVar[int]
    POINTS_WON_FIELD_NUMBER: _ClassVar[int]
    SEAT_STATES_FIELD_NUMBER: _ClassVar[int]
    LOTTERY_FIELD_NUMBER: _ClassVar[int]
    STOCK_SIZE_FIELD_NUMBER: _ClassVar[int]
    BANK_SIZES_FIELD_NUMBER: _ClassVar[int]
    FORCED_SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    players: int
    phase: str
    to_act: int
    deal_number: int
    dealer: int
    active_seats: _containers.RepeatedScalarFieldContainer[int]
    hand: _containers.RepeatedScalarFieldContainer[str]
    hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    auction: _containers.RepeatedCompositeFieldContainer[AuctionEntry]
    bid: int
    bidder: int
    declarer: int
    contract: int
    talon: _containers.RepeatedScalarFieldContainer[str]
    talon_count: int
    given: _containers.RepeatedCompositeFieldContainer[GivenCard]
    discarded: _containers.RepeatedScalarFieldContainer[str]
    trump: str
    marriages: _containers.RepeatedCompositeFieldContainer[MarriageInfo]
    trick: _containers.RepeatedCompositeFieldContainer[TrickCard]
    leader: int
    tricks: _containers.RepeatedCompositeFieldContainer[Trick]
    tricks_won: _containers.RepeatedScalarFieldContainer[int]
    points_won: _containers.RepeatedScalarFieldContainer[int]
    seat_states: _containers.RepeatedCompositeFieldContainer[SeatState]
    lottery: LotteryState
    stock_size: int
    bank_sizes: _containers.RepeatedScalarFieldContainer[int]
    forced_seat: int
    def __init__(self, seat: _Optional[int] = ..., players: _Optional[int] = ..., phase: _Optional[str] = ..., to_act: _Optional[int] = ..., deal_number: _Optional[int] = ..., dealer: _Optional[int] = ..., active_seats: _Optional[_Iterable[int]] = ..., hand: _Optional[_Iterable[str]] = ..., hand_sizes: _Optional[_Iterable[int]] = ..., totals: _Optional[_Iterable[int]] = ..., auction: _Optional[_Iterable[_Union[AuctionEntry, _Mapping]]] = ..., bid: _Optional[int] = ..., bidder: _Optional[int] = ..., declarer: _Optional[int] = ..., contract: _Optional[int] = ..., talon: _Optional[_Iterable[str]] = ..., talon_count: _Optional[int] = ..., given: _Optional[_Iterable[_Union[GivenCard, _Mapping]]] = ..., discarded: _Optional[_Iterable[str]] = ..., trump: _Optional[str] = ..., marriages: _Optional[_Iterable[_Union[MarriageInfo, _Mapping]]] = ..., trick: _Optional[_Iterable[_Union[TrickCard, _Mapping]]] = ..., leader: _Optional[int] = ..., tricks: _Optional[_Iterable[_Union[Trick, _Mapping]]] = ..., tricks_won: _Optional[_Iterable[int]] = ..., points_won: _Optional[_Iterable[int]] = ..., seat_states: _Optional[_Iterable[_Union[SeatState, _Mapping]]] = ..., lottery: _Optional[_Union[LotteryState, _Mapping]] = ..., stock_size: _Optional[int] = ..., bank_sizes: _Optional[_Iterable[int]] = ..., forced_seat: _Optional[int] = ...) -> None: ...

class AuctionEntry(_message.Message):
    __slots__ = ("seat", "action")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action: str
    def __init__(self, seat: _Optional[int] = ..., action: _Optional[str] = ...) -> None: ...

class GivenCard(_message.Message):
    __slots__ = ("from_seat", "to_seat", "card")
    FROM_SEAT_FIELD_NUMBER: _ClassVar[int]
    TO_SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    from_seat: int
    to_seat: int
    card: str
    def __init__(self, from_seat: _Optional[int] = ..., to_seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class MarriageInfo(_message.Message):
    __slots__ = ("seat", "suit", "value")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SUIT_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    suit: str
    value: int
    def __init__(self, seat: _Optional[int] = ..., suit: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...

class TrickCard(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class Trick(_message.Message):
    __slots__ = ("leader", "cards", "winner")
    LEADER_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    leader: int
    cards: _containers.RepeatedCompositeFieldContainer[TrickCard]
    winner: int
    def __init__(self, leader: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[TrickCard, _Mapping]]] = ..., winner: _Optional[int] = ...) -> None: ...

class SeatState(_message.Message):
    __slots__ = ("seat", "bolts", "bombs_used", "on_barrel", "barrel_deals", "blind", "looked")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOLTS_FIELD_NUMBER: _ClassVar[int]
    BOMBS_USED_FIELD_NUMBER: _ClassVar[int]
    ON_BARREL_FIELD_NUMBER: _ClassVar[int]
    BARREL_DEALS_FIELD_NUMBER: _ClassVar[int]
    BLIND_FIELD_NUMBER: _ClassVar[int]
    LOOKED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    bolts: int
    bombs_used: int
    on_barrel: bool
    barrel_deals: int
    blind: bool
    looked: bool
    def __init__(self, seat: _Optional[int] = ..., bolts: _Optional[int] = ..., bombs_used: _Optional[int] = ..., on_barrel: _Optional[bool] = ..., barrel_deals: _Optional[int] = ..., blind: _Optional[bool] = ..., looked: _Optional[bool] = ...) -> None: ...

class LotteryState(_message.Message):
    __slots__ = ("organiser", "guesses", "picked")
    ORGANISER_FIELD_NUMBER: _ClassVar[int]
    GUESSES_FIELD_NUMBER: _ClassVar[int]
    PICKED_FIELD_NUMBER: _ClassVar[int]
    organiser: int
    guesses: _containers.RepeatedCompositeFieldContainer[LotteryGuess]
    picked: str
    def __init__(self, organiser: _Optional[int] = ..., guesses: _Optional[_Iterable[_Union[LotteryGuess, _Mapping]]] = ..., picked: _Optional[str] = ...) -> None: ...

class LotteryGuess(_message.Message):
    __slots__ = ("seat", "color")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COLOR_FIELD_NUMBER: _ClassVar[int]
    seat: int
    color: str
    def __init__(self, seat: _Optional[int] = ..., color: _Optional[str] = ...) -> None: ...
