# The first legal action of every decision (docs/bots.md, "A bot without gRPC").
BEGIN { print "{\"hello\":{\"bot_name\":\"awk\",\"bot_version\":\"1\",\"protocol_version\":2}}"; fflush() }
/"decision"/ {
  seq = $0; sub(/.*"seq":"/, "", seq); sub(/".*/, "", seq)
  text = $0; sub(/.*"legal_texts":\["/, "", text); sub(/".*/, "", text)
  printf "{\"reply\":{\"seq\":\"%s\",\"text\":\"%s\"}}\n", seq, text; fflush()
}
