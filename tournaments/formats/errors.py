"""The one error the pure tournament layer raises for input a person can fix."""


class FormatError(ValueError):
    """Input an organiser can correct (unknown player, bad result, impossible option).

    The message is shown as is: it names the offending value and says what is expected.
    The Django layer maps it to a 4xx answer; anything else raised here is a bug.
    """
