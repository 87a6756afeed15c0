"""Identities: a public user id (UUID4) and a signed token that is the only credential."""

from __future__ import annotations

import uuid

from itsdangerous import BadSignature, URLSafeTimedSerializer

SALT = "lounge-session"


class TokenSigner:
    """Issues and checks tokens signed with the server's secret key."""

    def __init__(self, secret_key: str, max_age_seconds: int) -> None:
        self._serializer = URLSafeTimedSerializer(secret_key, salt=SALT)
        self._max_age = max_age_seconds

    def new_session(self) -> dict[str, str]:
        """A fresh identity: ``{"user_id", "token"}``."""
        user_id = str(uuid.uuid4())
        return {"user_id": user_id, "token": self._serializer.dumps({"uid": user_id})}

    def user_id(self, token: object) -> str | None:
        """The user id a token was issued to, or None for anything that is not a valid token."""
        if not isinstance(token, str) or not token or len(token) > 512:
            return None
        try:
            data = self._serializer.loads(token, max_age=self._max_age)
        except BadSignature:  # also covers expired tokens
            return None
        uid = data.get("uid") if isinstance(data, dict) else None
        return uid if isinstance(uid, str) else None


def bearer_token(header: str | None) -> str | None:
    """The token from an ``Authorization: Bearer <token>`` header."""
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None
