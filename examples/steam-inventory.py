"""A Python bot's Steam half against the sandbox's Steam face: the calls steampy (and Steamauto's
copy of it) makes to log in with the password and a Steam Guard code, then the inventory read.

Runs on Debian's python3 with python3-requests and python3-cryptography. The face is reached as
Steam is, by name: `eval "$(npx skinmarket steam env)"` sets HTTPS_PROXY and REQUESTS_CA_BUNDLE.
The account's secrets come from `skinmarket admin platform steam <platformid>`:

    STEAM_ACCOUNT_NAME=... STEAM_PASSWORD=... STEAM_SHARED_SECRET=... python3 examples/steam-inventory.py
"""

import base64
import hashlib
import hmac
import json
import os
import struct
import sys
import time

import requests
from cryptography.hazmat.primitives.asymmetric import padding, rsa

API = "https://api.steampowered.com/IAuthenticationService"
COMMUNITY = "https://steamcommunity.com"
CODE_CHARACTERS = "23456789BCDFGHJKMNPQRTVWXY"


def steam_guard_code(shared_secret: str, timestamp: int) -> str:
    """The mobile authenticator's code, as steampy's guard.generate_one_time_code makes it."""
    digest = hmac.new(base64.b64decode(shared_secret), struct.pack(">Q", timestamp // 30), hashlib.sha1).digest()
    start = digest[19] & 0x0F
    value = struct.unpack(">I", digest[start : start + 4])[0] & 0x7FFFFFFF
    code = ""
    for _ in range(5):
        value, index = divmod(value, len(CODE_CHARACTERS))
        code += CODE_CHARACTERS[index]
    return code


def answer(response: requests.Response) -> dict:
    """The `response` of an IAuthenticationService call; its outcome is the X-eresult header."""
    response.raise_for_status()
    eresult = response.headers.get("X-eresult")
    if eresult != "1":
        raise RuntimeError(f"{response.url}: EResult {eresult} {response.headers.get('X-error_message', '')}")
    return response.json()["response"]


def log_in(session: requests.Session, account_name: str, password: str, shared_secret: str) -> str:
    key = answer(session.get(f"{API}/GetPasswordRSAPublicKey/v1", params={"account_name": account_name}))
    public_key = rsa.RSAPublicNumbers(int(key["publickey_exp"], 16), int(key["publickey_mod"], 16)).public_key()
    encrypted = base64.b64encode(public_key.encrypt(password.encode("utf-8"), padding.PKCS1v15())).decode("ascii")
    began = answer(
        session.post(
            f"{API}/BeginAuthSessionViaCredentials/v1",
            data={
                "persistence": "1",
                "encrypted_password": encrypted,
                "account_name": account_name,
                "encryption_timestamp": key["timestamp"],
            },
        )
    )
    answer(
        session.post(
            f"{API}/UpdateAuthSessionWithSteamGuardCode/v1",
            data={
                "client_id": began["client_id"],
                "steamid": began["steamid"],
                "code_type": "3",
                "code": steam_guard_code(shared_secret, int(time.time())),
            },
        )
    )
    polled = answer(
        session.post(
            f"{API}/PollAuthSessionStatus/v1",
            data={"client_id": began["client_id"], "request_id": began["request_id"]},
        )
    )
    finalized = session.post(
        "https://login.steampowered.com/jwt/finalizelogin",
        data={
            "nonce": polled["refresh_token"],
            "sessionid": os.urandom(12).hex(),
            "redir": f"{COMMUNITY}/login/home/?goto=",
        },
    ).json()
    for transfer in finalized["transfer_info"]:
        set_token = session.post(transfer["url"], data={**transfer["params"], "steamID": finalized["steamID"]})
        if set_token.json().get("result") != 1:
            raise RuntimeError(f"{transfer['url']}: {set_token.text}")
    return finalized["steamID"]


def inventory(session: requests.Session, steamid: str) -> list:
    """Every CS2 item of the account, page by page, each with its description's name."""
    items, start = [], None
    while True:
        params = {"l": "english", "count": 2000, **({"start_assetid": start} if start else {})}
        page = session.get(f"{COMMUNITY}/inventory/{steamid}/730/2", params=params)
        page.raise_for_status()
        body = page.json()
        names = {(d["classid"], d["instanceid"]): d["market_hash_name"] for d in body.get("descriptions", [])}
        items += [{**asset, "market_hash_name": names[(asset["classid"], asset["instanceid"])]} for asset in body.get("assets", [])]
        if not body.get("more_items"):
            return items
        start = body["last_assetid"]


def main() -> int:
    session = requests.Session()
    steamid = log_in(
        session,
        os.environ["STEAM_ACCOUNT_NAME"],
        os.environ["STEAM_PASSWORD"],
        os.environ["STEAM_SHARED_SECRET"],
    )
    cookie = session.cookies.get("steamLoginSecure", domain="steamcommunity.com")
    print(json.dumps({"steamid": steamid, "signed_in": bool(cookie)}))
    items = inventory(session, steamid)
    print(json.dumps({"items": [[item["assetid"], item["market_hash_name"]] for item in items]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
