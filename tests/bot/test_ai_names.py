from bot.tables.lobby import AI_NAMES, ai_seat_name


def test_ai_names_read_as_names_and_never_repeat_a_seat_name() -> None:
    assert ai_seat_name([]) == "Ada"
    assert ai_seat_name(["ada", "bob"]) == "Alan"  # a person called Ada keeps their name alone
    taken: list[str] = ["ann"]
    for _ in range(5):
        taken.append(ai_seat_name(taken))
    assert taken[1:] == list(AI_NAMES[:5])
    assert all(not any(char.isdigit() for char in name) for name in AI_NAMES)
