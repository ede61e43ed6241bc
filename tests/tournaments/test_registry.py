from tournaments.formats import FORMATS
from tournaments.tiebreaks import TIEBREAKS, get


def test_formats_are_registered_under_the_keys_the_database_stores():
    assert list(FORMATS) == [
        "single_elimination",
        "double_elimination",
        "round_robin",
        "swiss",
        "genius",
    ]
    for key, module in FORMATS.items():
        assert key == module.KEY
        assert module.LABEL


def test_tiebreaks_are_registered_by_key():
    for key in [
        "points",
        "wins",
        "head_to_head",
        "buchholz",
        "buchholz_cut1",
        "median_buchholz",
        "sonneborn_berger",
        "koya",
        "progressive",
        "game_score",
        "power_cards_played",
        "dmo_wins_tie",
    ]:
        assert TIEBREAKS[key].key == key
        assert get(key) is TIEBREAKS[key]
    assert get("metric:cards_left").key == "metric:cards_left"
