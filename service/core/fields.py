"""marshmallow fields and validators every feature's schemas share: strict schemas, whole numbers
as JSON Schema means them, names safe to show, and text safe to put in a mail header."""
from __future__ import annotations

import math
import re

import marshmallow as ma
from marshmallow import fields as f
from marshmallow import validate as v


def doc(description: str, **more) -> dict:
    """A field's documentation (its description and more) as marshmallow's metadata keyword."""
    return {"metadata": {"description": description, **more}}


class StrictSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE  # an unexpected field is named in a validation-error, never ignored


WHOLE_NUMBER = "must be a whole number (like 3 or 3.0)"


def whole_number(value) -> int:
    """A JSON number with no fractional part, as JSON Schema's `integer` means: 3 and 3.0 alike;
    3.5, "3", true and NaN raise ValueError."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{WHOLE_NUMBER}, got {value!r}")
    if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
        raise ValueError(f"{WHOLE_NUMBER}, got {value!r}")
    return int(value)


_DIGITS = re.compile(r"^-?[0-9]+(\.0*)?$")


class WholeNumber(f.Integer):
    """The integer field of every request: a body's whole_number, or with `text=True` (a query
    parameter, always text) its digits, with a zero fraction allowed there too ("50", "50.0")."""

    def __init__(self, *, text: bool = False, **kwargs):
        super().__init__(**kwargs)
        self.text = text

    def _validated(self, value):
        if self.text and isinstance(value, str) and _DIGITS.fullmatch(value):  # "5\n" is not 5
            return int(value.split(".")[0])
        try:
            return whole_number(value)
        except ValueError as exc:
            raise ma.ValidationError(str(exc)) from None


# RFC 2047 encoded words (`=?charset?q?...?=`): the email package decodes them in any header value
# it is given as text, so `=?l1?q?=0A?=` turns into a linefeed there. No user text that can reach a
# mail header (names, addresses) may hold one. Plain functions, not Regexp validators: the spec
# keeps one readable pattern per field.
_ENCODED_WORD = re.compile(r"=\?.*\?=", re.S)
_CONTROLS = re.compile(r"[\x00-\x1f\x7f]")


def no_encoded_word(text: str) -> None:
    if _ENCODED_WORD.search(text):
        raise ma.ValidationError("may not hold an RFC 2047 encoded word (=?...?=)")


def no_controls(text: str) -> None:
    """C0 controls and DEL (NUL among them: PostgreSQL refuses it in text) are never part of an
    address or a URL; refused here, before anything reaches the database."""
    if _CONTROLS.search(text):
        raise ma.ValidationError("may not hold control characters")


# An email address as the service accepts one (service/notify/consent/addresses.py, check_email, says why
# each part): ASCII; a dot-atom local part of at most 64 characters; a domain of host labels, at most
# 253 characters, ending in a label of letters or an xn-- one, or localhost; no RFC 2047 encoded word.
# Spaces around it are trimmed. Written for Python's re and ECMA-262 alike, the spec's dialect.
_ATEXT = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_LABEL = r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_TOP_LABEL = r"([A-Za-z]{2,63}|xn--[A-Za-z0-9-]{0,58}[A-Za-z0-9])"
_LOCALHOST = "[Ll][Oo][Cc][Aa][Ll][Hh][Oo][Ss][Tt]"
EMAIL_PATTERN = (rf"^ *(?!.*=\?.*\?=)(?=[^@]{{1,64}}@){_ATEXT}(\.{_ATEXT})*"
                 rf"@(?=[^ ]{{1,253}} *$)(({_LABEL}\.)+{_TOP_LABEL}|{_LOCALHOST}) *$")
EMAIL_RULE = ("An email address: ASCII, a local part of at most 64 characters (letters, digits and "
              "!#$%&'*+/=?^_`{|}~- in dot-separated runs), @, and a domain of host labels (letters, digits, "
              "inner hyphens) ending in a label of letters or an xn-- label, or localhost; at most 254 "
              "characters, no RFC 2047 encoded word (=?...?=), not this service's own mail domain; spaces "
              "around it are ignored")


class _EmailPattern(v.Regexp):
    """EMAIL_PATTERN (documented as the field's `pattern`), saying why when the address is not ASCII.
    Matched whole, as JSON Schema's ECMA `$` means: Python's `$` would let a trailing newline by."""

    def __call__(self, value):
        if isinstance(value, str) and not value.isascii():
            raise ma.ValidationError("only ASCII addresses are accepted (a non-ASCII local part needs SMTPUTF8, "
                                     "which not every mail server offers; write an international domain in "
                                     "its xn-- form)")
        if not isinstance(value, str) or self.regex.fullmatch(value) is None:
            raise ma.ValidationError(self._format_error(value))
        return value


class EmailField(f.String):
    """An email address, checked by EMAIL_PATTERN as openapi.yaml states it (pattern, maxLength and
    EMAIL_RULE in the description); where the address is used, notify's check_email judges it again."""

    def __init__(self, description: str, *, validate=(), example="ann@example.org", **kwargs):
        super().__init__(validate=[v.Length(max=254), _EmailPattern(EMAIL_PATTERN, error=(
            "not an email address: write a bare address like ann@example.org")), *validate],
            **doc(f"{description}. {EMAIL_RULE}", **({} if example is None else {"example": example})), **kwargs)


# No control characters (C0, DEL, C1), line separators or bidirectional overrides: a name is shown
# to the opponent, in mails and in terminals, and must not rewrite what is around it.
NAME_PATTERN = r"^[^\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]*$"


class NameField(f.String):
    def __init__(self, **kwargs):
        super().__init__(required=True, validate=[v.Length(1, 40), v.Regexp(
                             NAME_PATTERN, error="a name may not hold control or direction characters"),
                             no_encoded_word],  # the name goes into mail Subjects
                         **doc("Display name shown to the opponent", example="Ann"), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        self._validate(text)  # what was sent, as the spec says; then the trimmed name must show
        if not text.strip():
            raise ma.ValidationError("a name needs at least one visible character")
        return text.strip()
