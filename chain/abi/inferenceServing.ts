// The part of 0G Compute's InferenceServing ABI that the TEE check reads (a provider's record and
// its events) and that the devnet's mock implements. Taken from @0gfoundation/0g-compute-ts-sdk
// 0.9.0, lib.commonjs/inference/contract/typechain/factories/InferenceServing__factory.js.
export const inferenceServingAbi = [
  {
    "inputs": [
      {
        "name": "provider",
        "type": "address"
      }
    ],
    "name": "getService",
    "outputs": [
      {
        "components": [
          {
            "name": "provider",
            "type": "address"
          },
          {
            "name": "serviceType",
            "type": "string"
          },
          {
            "name": "url",
            "type": "string"
          },
          {
            "name": "inputPrice",
            "type": "uint256"
          },
          {
            "name": "outputPrice",
            "type": "uint256"
          },
          {
            "name": "updatedAt",
            "type": "uint256"
          },
          {
            "name": "model",
            "type": "string"
          },
          {
            "name": "verifiability",
            "type": "string"
          },
          {
            "name": "additionalInfo",
            "type": "string"
          },
          {
            "name": "teeSignerAddress",
            "type": "address"
          },
          {
            "name": "teeSignerAcknowledged",
            "type": "bool"
          }
        ],
        "name": "service",
        "type": "tuple"
      }
    ],
    "stateMutability": "view",
    "type": "function"
  },
  {
    "inputs": [
      {
        "name": "provider",
        "type": "address"
      }
    ],
    "name": "serviceExists",
    "outputs": [
      {
        "name": "",
        "type": "bool"
      }
    ],
    "stateMutability": "view",
    "type": "function"
  },
  {
    "inputs": [],
    "name": "owner",
    "outputs": [
      {
        "name": "",
        "type": "address"
      }
    ],
    "stateMutability": "view",
    "type": "function"
  },
  {
    "inputs": [
      {
        "components": [
          {
            "name": "serviceType",
            "type": "string"
          },
          {
            "name": "url",
            "type": "string"
          },
          {
            "name": "model",
            "type": "string"
          },
          {
            "name": "verifiability",
            "type": "string"
          },
          {
            "name": "inputPrice",
            "type": "uint256"
          },
          {
            "name": "outputPrice",
            "type": "uint256"
          },
          {
            "name": "additionalInfo",
            "type": "string"
          },
          {
            "name": "teeSignerAddress",
            "type": "address"
          }
        ],
        "name": "params",
        "type": "tuple"
      }
    ],
    "name": "addOrUpdateService",
    "outputs": [],
    "stateMutability": "payable",
    "type": "function"
  },
  {
    "inputs": [],
    "name": "removeService",
    "outputs": [],
    "stateMutability": "nonpayable",
    "type": "function"
  },
  {
    "inputs": [
      {
        "name": "provider",
        "type": "address"
      },
      {
        "name": "acknowledged",
        "type": "bool"
      }
    ],
    "name": "acknowledgeTEESigner",
    "outputs": [],
    "stateMutability": "nonpayable",
    "type": "function"
  },
  {
    "inputs": [
      {
        "name": "provider",
        "type": "address"
      }
    ],
    "name": "acknowledgeTEESignerByOwner",
    "outputs": [],
    "stateMutability": "nonpayable",
    "type": "function"
  },
  {
    "inputs": [
      {
        "name": "provider",
        "type": "address"
      }
    ],
    "name": "revokeTEESignerAcknowledgement",
    "outputs": [],
    "stateMutability": "nonpayable",
    "type": "function"
  },
  {
    "anonymous": false,
    "inputs": [
      {
        "indexed": true,
        "name": "service",
        "type": "address"
      },
      {
        "indexed": false,
        "name": "serviceType",
        "type": "string"
      },
      {
        "indexed": false,
        "name": "url",
        "type": "string"
      },
      {
        "indexed": false,
        "name": "inputPrice",
        "type": "uint256"
      },
      {
        "indexed": false,
        "name": "outputPrice",
        "type": "uint256"
      },
      {
        "indexed": false,
        "name": "updatedAt",
        "type": "uint256"
      },
      {
        "indexed": false,
        "name": "model",
        "type": "string"
      },
      {
        "indexed": false,
        "name": "verifiability",
        "type": "string"
      }
    ],
    "name": "ServiceUpdated",
    "type": "event"
  },
  {
    "anonymous": false,
    "inputs": [
      {
        "indexed": true,
        "name": "service",
        "type": "address"
      }
    ],
    "name": "ServiceRemoved",
    "type": "event"
  },
  {
    "anonymous": false,
    "inputs": [
      {
        "indexed": true,
        "name": "provider",
        "type": "address"
      },
      {
        "indexed": true,
        "name": "teeSignerAddress",
        "type": "address"
      },
      {
        "indexed": false,
        "name": "acknowledged",
        "type": "bool"
      }
    ],
    "name": "ProviderTEESignerAcknowledged",
    "type": "event"
  }
] as const
