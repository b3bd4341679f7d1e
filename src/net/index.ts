// Outbound HTTP for Telecode's own requests: the proxy the environment names, if any.
export { httpAccess, type HttpAccess } from "./http-access.js";
export { proxyFor, proxyPasswords, ProxySettingError, shownProxy, type ProxyChoice } from "./proxy-choice.js";
