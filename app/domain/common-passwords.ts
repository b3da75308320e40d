// The most used passwords (from public breach-frequency lists), plus local favourites. A password on
// this list is refused whatever its length: it is the first thing an attacker tries.
const COMMON_PASSWORDS = new Set(
  `123456 1234567 12345678 123456789 1234567890 12345678910 0123456789 987654321 654321 123123 123321
  111111 1111111 11111111 000000 0000000 00000000 121212 112233 123654 159753 147258 147258369 123qwe
  password password1 password12 password123 passw0rd p@ssword p@ssw0rd qwerty qwerty1 qwerty12 qwerty123
  qwertyuiop asdfgh asdfghjkl zxcvbnm 1q2w3e 1q2w3e4r 1q2w3e4r5t qazwsx 1qaz2wsx abc123 abcd1234 abcdef
  abcdefg a1b2c3 aa123456 iloveyou iloveu princess sunshine monkey dragon football baseball superman
  batman trustno1 letmein welcome welcome1 welcome123 login admin admin123 administrator master shadow
  michael jennifer jordan23 harley ranger hunter buster soccer hockey killer george charlie andrew
  michelle jessica pepper daniel starwars computer whatever freedom secret secret123 summer winter
  flower hello123 hello1 lovely loveme love123 mustang access access14 696969 666666 555555 777777
  888888 999999 123abc azerty changeme chelsea liverpool arsenal manchester internet samsung google
  qwe123 zaq12wsx 12qwaszx 1234qwer q1w2e3r4 q1w2e3r4t5 asdf1234 asd123 mypassword test123 test1234
  testtest default guest1 user123 root123 toor ethiopia ethiopia1 ethiopia123 addisababa addis123
  selam123 habesha amharic abebe123 qoda123 qodaqoda doctor doctor123 patient`
    .split(/\s+/)
    .filter(Boolean),
);

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.trim().toLowerCase());
}
