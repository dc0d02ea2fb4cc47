/**
 * A throwaway self-signed certificate (secure.example.com, *.wild.example.com, valid for a century)
 * so that rendering tests are deterministic. Test material only: never used outside tests.
 */
export const FIXTURE_CERT = {
  cert_pem: `-----BEGIN CERTIFICATE-----
MIIBxjCCAWygAwIBAgIUK+HBUhCEBnyP3U+w2T7tEnMwv/AwCgYIKoZIzj0EAwIw
HTEbMBkGA1UEAwwSc2VjdXJlLmV4YW1wbGUuY29tMCAXDTI2MTEyMTA5MTQxMloY
DzIxMjYxMDI4MDkxNDEyWjAdMRswGQYDVQQDDBJzZWN1cmUuZXhhbXBsZS5jb20w
WTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAQsUESg+rLjwogNzaOAilt3CsnAzOeD
jPWyBlJ03KFFBd/+yqPHDH3cREPlkWIm6DNX7BgzamHSwwR4fEHeZMo6o4GHMIGE
MB0GA1UdDgQWBBTuESUo5Qtg1ebBXdboW0/hP010MTAfBgNVHSMEGDAWgBTuESUo
5Qtg1ebBXdboW0/hP010MTAPBgNVHRMBAf8EBTADAQH/MDEGA1UdEQQqMCiCEnNl
Y3VyZS5leGFtcGxlLmNvbYISKi53aWxkLmV4YW1wbGUuY29tMAoGCCqGSM49BAMC
A0gAMEUCIQDgnxiTPEM70Rnbevu55bhxQNamaWiHaR9oNli5B+fYrAIgPLz6EtKG
WLtYwN1ZuDkNejabov+oXcD08biVuWNYC7M=
-----END CERTIFICATE-----
`,
  key_pem: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgR1JdKGf/MODdwVXF
qayLpzyY2lWRiyMc7Wa4ClcbgTyhRANCAAQsUESg+rLjwogNzaOAilt3CsnAzOeD
jPWyBlJ03KFFBd/+yqPHDH3cREPlkWIm6DNX7BgzamHSwwR4fEHeZMo6
-----END PRIVATE KEY-----
`,
};
