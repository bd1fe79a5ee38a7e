import protobuf from "protobufjs";

/**
 * The messages of IAuthenticationService that the credential and QR logins use (and the mobile
 * authenticator's reading of a pending one), with Steam's field
 * numbers (steammessages_auth.steamclient.proto, as steam-session and Steamauto's steampy carry it).
 * Only what the login reads and answers is declared; unknown fields of a request are skipped.
 */
const PROTO = `
syntax = "proto2";
enum EAuthTokenPlatformType { k_EAuthTokenPlatformType_Unknown = 0; k_EAuthTokenPlatformType_SteamClient = 1; k_EAuthTokenPlatformType_WebBrowser = 2; k_EAuthTokenPlatformType_MobileApp = 3; }
enum EAuthSessionSecurityHistory { k_EAuthSessionSecurityHistory_Invalid = 0; k_EAuthSessionSecurityHistory_UsedPreviously = 1; k_EAuthSessionSecurityHistory_NoPriorHistory = 2; }
enum ESessionPersistence { k_ESessionPersistence_Invalid = -1; k_ESessionPersistence_Ephemeral = 0; k_ESessionPersistence_Persistent = 1; }
enum EAuthSessionGuardType { k_EAuthSessionGuardType_Unknown = 0; k_EAuthSessionGuardType_None = 1; k_EAuthSessionGuardType_EmailCode = 2; k_EAuthSessionGuardType_DeviceCode = 3; k_EAuthSessionGuardType_DeviceConfirmation = 4; }
message CAuthentication_GetPasswordRSAPublicKey_Request { optional string account_name = 1; }
message CAuthentication_GetPasswordRSAPublicKey_Response { optional string publickey_mod = 1; optional string publickey_exp = 2; optional uint64 timestamp = 3; }
message CAuthentication_DeviceDetails { optional string device_friendly_name = 1; optional EAuthTokenPlatformType platform_type = 2; }
message CAuthentication_BeginAuthSessionViaCredentials_Request {
  optional string device_friendly_name = 1; optional string account_name = 2; optional string encrypted_password = 3;
  optional uint64 encryption_timestamp = 4; optional EAuthTokenPlatformType platform_type = 6; optional string website_id = 8;
  optional CAuthentication_DeviceDetails device_details = 9;
}
message CAuthentication_AllowedConfirmation { optional EAuthSessionGuardType confirmation_type = 1; optional string associated_message = 2; }
message CAuthentication_BeginAuthSessionViaCredentials_Response {
  optional uint64 client_id = 1; optional bytes request_id = 2; optional float interval = 3;
  repeated CAuthentication_AllowedConfirmation allowed_confirmations = 4; optional uint64 steamid = 5; optional string weak_token = 6;
}
message CAuthentication_BeginAuthSessionViaQR_Request {
  optional string device_friendly_name = 1; optional EAuthTokenPlatformType platform_type = 2;
  optional CAuthentication_DeviceDetails device_details = 3; optional string website_id = 4;
}
message CAuthentication_BeginAuthSessionViaQR_Response {
  optional uint64 client_id = 1; optional string challenge_url = 2; optional bytes request_id = 3; optional float interval = 4;
  repeated CAuthentication_AllowedConfirmation allowed_confirmations = 5; optional int32 version = 6;
}
message CAuthentication_UpdateAuthSessionWithMobileConfirmation_Request {
  optional int32 version = 1; optional uint64 client_id = 2; optional fixed64 steamid = 3; optional bytes signature = 4;
  optional bool confirm = 5 [default = false]; optional int32 persistence = 6;
}
message CAuthentication_UpdateAuthSessionWithMobileConfirmation_Response { }
message CAuthentication_UpdateAuthSessionWithSteamGuardCode_Request { optional uint64 client_id = 1; optional fixed64 steamid = 2; optional string code = 3; optional EAuthSessionGuardType code_type = 4; }
message CAuthentication_UpdateAuthSessionWithSteamGuardCode_Response { optional string agreement_session_url = 7; }
message CAuthentication_PollAuthSessionStatus_Request { optional uint64 client_id = 1; optional bytes request_id = 2; }
message CAuthentication_PollAuthSessionStatus_Response {
  optional uint64 new_client_id = 1; optional string refresh_token = 3; optional string access_token = 4;
  optional bool had_remote_interaction = 5; optional string account_name = 6;
}
message CAuthentication_GetAuthSessionInfo_Request { optional uint64 client_id = 1; }
message CAuthentication_GetAuthSessionInfo_Response {
  optional string ip = 1; optional string geoloc = 2; optional string city = 3; optional string state = 4; optional string country = 5;
  optional EAuthTokenPlatformType platform_type = 6; optional string device_friendly_name = 7; optional int32 version = 8;
  optional EAuthSessionSecurityHistory login_history = 9; optional bool requestor_location_mismatch = 10;
  optional bool high_usage_login = 11; optional ESessionPersistence requested_persistence = 12;
}
message CAuthentication_GetAuthSessionsForAccount_Request { }
message CAuthentication_GetAuthSessionsForAccount_Response { repeated uint64 client_ids = 1; }
message CAuthentication_AccessToken_GenerateForApp_Request { optional string refresh_token = 1; optional fixed64 steamid = 2; optional int32 renewal_type = 3; }
message CAuthentication_AccessToken_GenerateForApp_Response { optional string access_token = 1; optional string refresh_token = 2; }
`;

const root = protobuf.parse(PROTO, { keepCase: true }).root;

/** Each method's request and response types, by the method's name in the URL. */
export const AUTHENTICATION_METHODS = {
  GetPasswordRSAPublicKey: messages("CAuthentication_GetPasswordRSAPublicKey"),
  BeginAuthSessionViaCredentials: messages("CAuthentication_BeginAuthSessionViaCredentials"),
  BeginAuthSessionViaQR: messages("CAuthentication_BeginAuthSessionViaQR"),
  UpdateAuthSessionWithMobileConfirmation: messages(
    "CAuthentication_UpdateAuthSessionWithMobileConfirmation",
  ),
  UpdateAuthSessionWithSteamGuardCode: messages("CAuthentication_UpdateAuthSessionWithSteamGuardCode"),
  PollAuthSessionStatus: messages("CAuthentication_PollAuthSessionStatus"),
  GenerateAccessTokenForApp: messages("CAuthentication_AccessToken_GenerateForApp"),
  GetAuthSessionInfo: messages("CAuthentication_GetAuthSessionInfo"),
  GetAuthSessionsForAccount: messages("CAuthentication_GetAuthSessionsForAccount"),
} as const;

export type AuthenticationMethod = keyof typeof AUTHENTICATION_METHODS;

function messages(name: string) {
  return { request: root.lookupType(`${name}_Request`), response: root.lookupType(`${name}_Response`) };
}

/** A request's fields as plain values: 64-bit numbers as decimal strings, bytes as Buffers. */
export function decodeRequest(method: AuthenticationMethod, base64: string): Record<string, unknown> {
  const type = AUTHENTICATION_METHODS[method].request;
  const message = type.decode(Buffer.from(base64, "base64"));
  return type.toObject(message, { longs: String, enums: Number });
}

export function encodeResponse(method: AuthenticationMethod, fields: Record<string, unknown>): Buffer {
  const type = AUTHENTICATION_METHODS[method].response;
  return Buffer.from(type.encode(type.fromObject(fields)).finish());
}
