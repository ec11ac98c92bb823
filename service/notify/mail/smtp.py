"""Mail out through an SMTP server (smtplib). A row counts as sent only once the server accepted it.

An address that is not ASCII (`ü@example.org`) needs SMTPUTF8 (RFC 6531): it is used when the
server offers it, and otherwise the row fails for good, saying so, rather than raising halfway
through the SMTP dialogue. Whatever a send raises, the connection is dropped, so the next mail of
the batch starts on a clean one.
"""
from __future__ import annotations

import smtplib
from email.utils import parseaddr

from ..channels import DeliveryError
from ..config import setting
from ..outbox import within_lease


class MailError(DeliveryError):
    def __init__(self, message: str, permanent: bool = False):
        super().__init__(message)
        self.permanent = permanent


class Mailer:
    """One SMTP connection, opened on first use and reused for a batch; `close()` when done. The
    mail channel's courier (channel.py): `deliver` sends a claimed row."""

    def __init__(self):
        self.connection: smtplib.SMTP | None = None

    def _connect(self) -> smtplib.SMTP:
        if self.connection is None:
            connection = smtplib.SMTP(setting("SMTP_HOST"), setting("SMTP_PORT"),
                                      timeout=within_lease(setting("SMTP_TIMEOUT")))
            if setting("SMTP_STARTTLS"):
                connection.starttls()
            if setting("SMTP_USER"):
                connection.login(setting("SMTP_USER"), setting("SMTP_PASSWORD") or "")
            self.connection = connection
        return self.connection

    def deliver(self, row) -> None:
        self.send(row.recipient, row.payload)

    def send(self, recipient: str, payload: str) -> None:
        if self.connection is not None:
            try:  # a reused connection the server may have timed out: check before trusting it
                self.connection.noop()
            except (OSError, smtplib.SMTPException):
                self.connection = None
        sender = parseaddr(setting("MAIL_FROM"))[1]
        try:
            connection = self._connect()
            data, options = self._encoding(connection, sender, recipient, payload)
            connection.sendmail(sender, [recipient], data, mail_options=options)
        except smtplib.SMTPRecipientsRefused as exc:
            code, text = next(iter(exc.recipients.values()))
            self.close()
            raise MailError(f"recipient refused: {code} {text!r}", permanent=code >= 500) from None
        except smtplib.SMTPResponseException as exc:
            # 5xx for the message itself is final; 4xx and a refused sender may pass.
            self.close()
            permanent = exc.smtp_code >= 500 and not isinstance(exc, smtplib.SMTPSenderRefused)
            raise MailError(f"SMTP {exc.smtp_code} {exc.smtp_error!r}", permanent=permanent) from None
        except (OSError, smtplib.SMTPException) as exc:
            self.close()
            raise MailError(f"{type(exc).__name__}: {exc}") from None
        except MailError:
            raise  # refused before anything was sent: the connection is still clean
        except BaseException:
            self.drop()  # midway through a dialogue: the connection's state is unknown
            raise

    @staticmethod
    def _encoding(connection: smtplib.SMTP, sender: str, recipient: str, payload: str) -> tuple[bytes, list[str]]:
        """The message's bytes and the MAIL FROM options it needs; a permanent MailError when
        the server cannot take it (a non-ASCII address or body it offers no extension for)."""
        if sender.isascii() and recipient.isascii() and payload.isascii():
            return payload.encode("ascii"), []
        connection.ehlo_or_helo_if_needed()
        options = []
        if not (sender.isascii() and recipient.isascii()):
            if not connection.has_extn("smtputf8"):
                raise MailError(f"the address {recipient!r} is not ASCII and the mail server does not offer "
                                "SMTPUTF8 (RFC 6531), so it cannot be delivered there", permanent=True)
            options.append("SMTPUTF8")
        if not payload.isascii():
            if not connection.has_extn("8bitmime"):
                raise MailError("the message is not ASCII and the mail server does not offer 8BITMIME",
                                permanent=True)
            options.append("BODY=8BITMIME")
        return payload.encode("utf-8"), options

    def close(self) -> None:
        if self.connection is not None:
            try:
                self.connection.quit()
            except (OSError, smtplib.SMTPException):
                self.connection.close()
            self.connection = None

    def drop(self) -> None:
        """Close without a word to the server."""
        if self.connection is not None:
            self.connection.close()
            self.connection = None
