"""Mail out through an SMTP server (smtplib). A row counts as sent only once the server accepted it."""
from __future__ import annotations

import smtplib
from email.utils import parseaddr

from .outbox import within_lease
from .settings import setting


class MailError(Exception):
    def __init__(self, message: str, permanent: bool = False):
        super().__init__(message)
        self.permanent = permanent


class Mailer:
    """One SMTP connection, opened on first use and reused for a batch; `close()` when done."""

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

    def send(self, recipient: str, payload: str) -> None:
        if self.connection is not None:
            try:  # a reused connection the server may have timed out: check before trusting it
                self.connection.noop()
            except (OSError, smtplib.SMTPException):
                self.connection = None
        sender = parseaddr(setting("MAIL_FROM"))[1]
        try:
            self._connect().sendmail(sender, [recipient], payload.encode("ascii"))
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

    def close(self) -> None:
        if self.connection is not None:
            try:
                self.connection.quit()
            except (OSError, smtplib.SMTPException):
                self.connection.close()
            self.connection = None
