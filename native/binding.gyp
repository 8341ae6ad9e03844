# The DiskDial engine addon. Layers call only downward:
#   addon.cc (exports) -> bindings/ (the only N-API code) -> engine/ (plain C++17) -> platform/ (the only OS calls)
# The build picks one platform file per OS, plus posix.cc where it applies, and one crypto file per
# OS (crypto_<os>.cc: OpenSSL's libcrypto, CommonCrypto, CNG). scripts/cross-compile.sh excludes
# other OSes' files by the same names.
{
  "targets": [
    {
      "target_name": "diskdial",
      "sources": [
        "src/addon.cc",
        "src/bindings/job.cc",
        "src/bindings/run_test.cc",
        "src/bindings/hash.cc",
        "src/bindings/cipher.cc",
        "src/bindings/convert.cc",
        "src/engine/spec.cc",
        "src/engine/engine.cc",
        "src/engine/phase.cc",
        "src/engine/paced.cc",
        "src/engine/small_files.cc",
        "src/engine/verify_block.cc",
        "src/engine/hash_spec.cc",
        "src/engine/hash.cc",
        "src/engine/cipher_spec.cc",
        "src/engine/cipher.cc",
        "src/platform/queue_generic.cc",
        "src/engine/histogram.cc",
        "src/engine/prng.cc",
        "src/engine/series.cc",
        "src/engine/status.cc",
      ],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")", "src"],
      "defines": ["NAPI_VERSION=8", "NAPI_CPP_EXCEPTIONS"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions", "-fno-rtti"],
      "cflags_cc": ["-std=c++17", "-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter"],
      "configurations": {
        "Debug": { "defines": ["DD_DEBUG=1"], "cflags_cc": ["-O1", "-g"] },
        "Release": {}
      },
      "conditions": [
        ["OS=='linux'", {
          "sources": ["src/platform/posix.cc", "src/platform/linux.cc", "src/platform/crypto_linux.cc"],
          "libraries": ["-pthread", "-lcrypto"]
        }],
        ["OS=='mac'", {
          "sources": ["src/platform/posix.cc", "src/platform/darwin.cc", "src/platform/crypto_darwin.cc"],
          "xcode_settings": {
            "GCC_ENABLE_CPP_EXCEPTIONS": "YES",
            "CLANG_CXX_LANGUAGE_STANDARD": "c++17",
            "MACOSX_DEPLOYMENT_TARGET": "11.0",
            "OTHER_CPLUSPLUSFLAGS": ["-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter"]
          }
        }],
        ["OS=='win'", {
          "sources": ["src/platform/win.cc", "src/platform/crypto_win.cc"],
          "libraries": ["bcrypt.lib"],
          "defines": ["WIN32_LEAN_AND_MEAN", "NOMINMAX", "_HAS_EXCEPTIONS=1"],
          "msvs_settings": { "VCCLCompilerTool": { "ExceptionHandling": 1, "AdditionalOptions": ["/std:c++17"] } }
        }]
      ]
    }
  ]
}
