//! The auth run's tokens and key set: one RSA-2048 key (made once with
//! Python's `cryptography` for this bench; it signs nothing else), its JWKS
//! written to a file the server reads, and an RS256 token per client.

use contract_runtime::identity::oauth::{JwksSource, JwtAuthenticator, JwtConfig};
use jsonwebtoken::{encode, Algorithm, EncodingKey, Header};
use serde_json::json;

const ISS: &str = "https://auth.bench";
const AUD: &str = "https://tools.bench/mcp";
/// PKCS#1 DER of the private key.
const RSA_DER: &str = "308204a30201000282010100b952a631e91cfa679f108e2b5e91b7a2b787e8bb2d1f44f0da330687bedc50f68bdd6e5973e965ac6b66ca3080a15d8747b039e4bb19ad78ec4a8a0a49df45159597eb7fbc74d40e4a4e9832cbef910ab51cfb0d9ed1ce513132c300e3f827e1d5c117b1860f4932d38b8c071e4bac83f4ca6b990f78595c08f9a424a2606611f57e95289fa2313d752284058ab51187feb1c7f17e15b010256f5f28415593f44499e66d270269c3057c19291c233da1ba80612fa648ead38ba573eb0fb001e9f3acea2e6af0b34cabf4b0796082ca4ed457f8c4d7b7ac42b488416042bb36e3990837cba4089e87254fb9dd0f2f2cc8c85545c2fc8bfb5078c7fd692cf22b730203010001028201002e50dc9e5eaf5259b16456d3b9f7db183c9c27eb17b4d7eb05ed78b5565b03950a9195b19f897652a828f1613bd4986665e14226cb27f8b5df00260dba36a5b26647a8a0acfdd9bd948e9df51c08cc8c0b85a9acd6c382b7c1fef8c3713624e9891d90095b02d8fd6de75360b80e9b980306cfeb59f56f07d46a67be8c22617fafe56959d63b4a08a2bd10d9b32538195470c71bb6b8173d88dd1143d6deb598bbdb1b53020eaa8e6f23f28e1c4f87ca17f2588ca0e045617a33d00a89288b3fb66da59392431d64387310ab1a1296456824c2cd056576faa061757396bf5fb8e6c030577a87ef35b83134b908713cbebe1c3fef939c9f11c27ad408846a05e102818100f502a088da85e43467ace79e8f5e47462dfc4d40253d911e8bc1c556d893ad58d869f618ee7a862b24eb61993d9adcf4726074d16daccd857d18d6999a6456e91186936137357d9de8810e0390bf9c806be16f18eab170d0e1b0eacec22e824c71bd6706ee09654c831bc22aa42d5e762c0324a143189ac3d42a10c3fb11d5d102818100c1a2a6a8af7a1b4d77b71b29d293ee0e6a891107203c7af24950ea100d1c8bd28eaf458e6b8d2d8d40f2b86fb48e88c1eacadfbd5656d6dd8f6d85ea3c6ee820a1ebe23738a8d9a23b1bd72142315d0a1f782a05533845da458ff5a9bda5a0a87ec149a77c390ec8b3b1a1dac17f7b643646300394e7baea2dba48cf035a8a03028181008e2be915a0a0230cd9c0366306d4714d62efcdafd42c46a24ffcafd33637735663b610ece4ad4a5f8cbbdd557baefa5a0a68b840b2809c7dc25a80647f778c0b107563ddfc98587d21e689483e5d41a62f738ff10876d07d150981275afc7bf579e6aafb1573744992a6afe3e882bf1699717576f2253be138a2f43994de039102818063e8dfa313ffa60cbfa36bd195849c8535b509632adfe9f40f9e3f570edcd6cc4ab0e6ebc854acd74056bc916e9148c0fdbbb5dc04ab83ec07f053f37b4122668c05a0d02b5cfc063807726607b85eb035729403f15f8cb345c734d363360d8242fcca5b2fbe65016bae50bc05b11862a99a6775c1a41b8e6f0fba378e1c6e2f0281802e6d11118c5af38b0aedd0f9eb7992b0fb416feacb4051e44ec38e4ae470f839b8c28de36910824bcbeef39d5245f40237668f080087f2e35f9529748fd9528bea97e8397a7a51e3d4f567d46dacc575d7ba24861cbf2d76ae0270b5858fb76df1365ffa23c6656c718f14e90d80b9b90412c183d51f5c7a4f2738d90533c936";
const N: &str = "uVKmMekc-mefEI4rXpG3oreH6LstH0Tw2jMGh77cUPaL3W5Zc-llrGtmyjCAoV2HR7A55LsZrXjsSooKSd9FFZWX63-8dNQOSk6YMsvvkQq1HPsNntHOUTEywwDj-Cfh1cEXsYYPSTLTi4wHHkusg_TKa5kPeFlcCPmkJKJgZhH1fpUon6IxPXUihAWKtRGH_rHH8X4VsBAlb18oQVWT9ESZ5m0nAmnDBXwZKRwjPaG6gGEvpkjq04ulc-sPsAHp86zqLmrws0yr9LB5YILKTtRX-MTXt6xCtIhBYEK7NuOZCDfLpAiehyVPud0PLyzIyFVFwvyL-1B4x_1pLPIrcw";

/// Where the key set is written: the scratch directory cargo gives benches,
/// inside the target directory it builds in (`CARGO_TARGET_DIR` or
/// `build.target-dir` when set). A constant, so the bench and the servers it
/// spawns from its own executable name the same file.
fn jwks_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcp-bench-jwks.json")
}

/// Writes the key set the `contract-jwt` servers read.
pub fn write_jwks() {
    let jwks = json!({"keys": [{"kty": "RSA", "n": N, "e": "AQAB", "kid": "bench-1", "alg": "RS256", "use": "sig"}]});
    let path = jwks_path();
    // Cargo makes the directory when it builds the bench; a `target/` cleaned
    // since has lost it.
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).expect("make the bench's scratch directory");
    }
    std::fs::write(path, jwks.to_string()).expect("write the bench's JWKS");
}

/// The server's authenticator: the key set file, `cache` tokens remembered.
pub fn authenticator(cache: usize) -> Result<JwtAuthenticator, String> {
    let config = JwtConfig::new(JwksSource::File(jwks_path()), ISS, AUD).with_token_cache(cache);
    JwtAuthenticator::new(config)
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// Client `i`'s token: its own subject, one of four tenants, the tool's scope.
pub fn token(i: usize) -> String {
    let now = jsonwebtoken::get_current_timestamp();
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some("bench-1".into());
    let claims = json!({"iss": ISS, "aud": AUD, "sub": format!("client-{i}"),
        "tenant": format!("tenant-{}", i % 4), "scope": "notes:read", "iat": now, "exp": now + 3600});
    encode(&header, &claims, &EncodingKey::from_rsa_der(&hex(RSA_DER))).expect("sign")
}
